package dev.depbloom.sampling;

/**
 * Samples temporal neighborhoods. Contract (checked by {@code NeighborSamplerContract} for every
 * implementation): no sampled edge is at or after its root's query time; a root gets at most the
 * layer's fanout samples; results depend only on the inputs and the {@code stream} key, never on
 * the number of threads.
 *
 * <p>A sampler may own threads; {@link #close()} releases them. Calls to {@link #sample} must not
 * overlap (implementations may keep per-node state between calls, e.g. time pointers).
 */
public interface NeighborSampler extends AutoCloseable {
  /**
   * @param roots node of every root, {@code [R]}
   * @param queryTimes time at which every root is queried, {@code [R]}
   * @param stream key of the random stream for this call (e.g. the batch index); samplers without
   *     randomness ignore it
   */
  TemporalSample sample(int[] roots, double[] queryTimes, long stream);

  /**
   * Forgets state that assumes queries come in time order (e.g. per-node pointers), for when time
   * starts over, as at a new epoch or the replay before testing. Results never depend on it; only
   * speed does.
   */
  default void reset() {}

  /** Releases the sampler's threads; a closed sampler must not be used again. */
  @Override
  default void close() {}
}
