package dev.depbloom.sampling;

/**
 * Samples temporal neighborhoods. Contract (checked by {@code NeighborSamplerContract} for every
 * implementation): no sampled edge is at or after its root's query time; a root gets at most the
 * layer's fanout samples; results depend only on the inputs and the {@code stream} key, never on
 * the number of threads; a root's samples depend on its own node, time and key, never on the other
 * roots of the call, so roots sampled in several calls under the keys one call would give them get
 * the same samples.
 *
 * <p>A sampler may own threads; {@link #close()} releases them. Calls to {@link #sample} must not
 * overlap (implementations may keep per-node state between calls, e.g. time pointers).
 */
public interface NeighborSampler extends AutoCloseable {
  /**
   * Samples with each root keyed by its position: {@code sample(roots, queryTimes, stream, [0, 1,
   * ..., R - 1])}.
   *
   * @param roots node of every root, {@code [R]}
   * @param queryTimes time at which every root is queried, {@code [R]}
   * @param stream key of the random stream for this call (e.g. the batch index); samplers without
   *     randomness ignore it
   */
  default TemporalSample sample(int[] roots, double[] queryTimes, long stream) {
    int[] positions = new int[roots.length];
    for (int r = 0; r < positions.length; r++) {
      positions[r] = r;
    }
    return sample(roots, queryTimes, stream, positions);
  }

  /**
   * Samples with explicit root keys. A root's draws depend only on the seed, {@code stream}, its
   * node, query time and key, never on the other roots of the call, so roots may be sampled in
   * several calls and get the neighborhoods one call would give them, if each keeps its key (the
   * test pass scores a batch's negatives in groups this way, keying each root by its position in
   * the whole batch). Keys should be distinct within a call: roots sharing a key share a random
   * stream.
   *
   * <p>Deeper layers inherit keys: sample {@code i} of a root with key {@code k} is, as a root of
   * the next layer, keyed {@code k * n + i}, {@code n} the fanout of the layer that sampled it (its
   * position in that layer when every root gets {@code n} samples). Samplers without randomness
   * ignore the keys.
   *
   * @param rootKeys key of each root's random stream, {@code [R]}; replaces its position
   */
  TemporalSample sample(int[] roots, double[] queryTimes, long stream, int[] rootKeys);

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
