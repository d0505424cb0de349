package dev.depbloom.profile;

/**
 * The schedule parameters a {@link DependencyProfile} recommends for {@code depbloom(W, P, k, B)}
 * on {@code G = P * k} devices.
 *
 * @param window events per temporal window W
 * @param partitioner {@code contiguous} or {@code topology}
 * @param chains sub-chains per window P
 * @param microBatches micro-batches per large batch k
 * @param reason one sentence: the measures that decided
 */
public record Recommendation(
    int window, String partitioner, int chains, int microBatches, String reason) {}
