package dev.depbloom.sampling;

import dev.depbloom.data.RandomStreams;

/**
 * The {@code uniform} strategy (TGAT, DySAT): per layer, each root with at least one incident event
 * strictly before its query time gets exactly {@code n} draws, uniform and with replacement, among
 * those events; a root without such events gets none. A root's draws are sorted oldest to newest
 * (row order), so repeats sit next to each other. A self-loop appears twice in its node's row and
 * is twice as likely as another event.
 *
 * <p>Randomness: the draws of a root with key {@code key} in layer {@code l} of snapshot {@code s}
 * come from the SplitMix64 stream {@link RandomStreams#derive derive}{@code (seed,
 * key("neighbor-sampling"), stream, s, l, key)}; draw {@code k} is {@code lo + floor(m * (z_k >>>
 * 32) / 2^32)} over the {@code m} eligible positions, {@code z_k} the stream's k-th output. A first
 * layer root's key is its position in the call or the key passed for it; a deeper root's key
 * follows from its parent's (see {@link NeighborSampler#sample(int[], double[], long, int[])}). So
 * a sample depends only on the seed, the {@code stream} key passed to {@link #sample} and the
 * roots' keys, never on the thread count or on how roots are cut among threads.
 *
 * <p>Unlike TGL's sampler, a root with fewer than {@code n} eligible events still gets {@code n}
 * draws (with repeats) rather than each event once, as docs/sampling.md specifies; and the draws do
 * not depend on thread ids.
 *
 * <p>Layers, snapshots and time pointers work as in {@link RecentNeighborSampler}.
 */
public final class UniformNeighborSampler implements NeighborSampler {
  private final ChunkedLayerSampler engine;

  /**
   * @param fanouts draws per root, one entry per layer ({@code [10, 10]} for TGAT)
   * @param threads threads that sample, the caller's included; the sampler owns {@code threads - 1}
   *     of them until {@link #close()}
   * @param seed the run's seed for this component
   */
  public UniformNeighborSampler(
      TemporalAdjacency rows, int[] fanouts, SnapshotWindows windows, int threads, long seed) {
    this(rows, fanouts, windows, threads, seed, true);
  }

  /**
   * As above; without {@code timeCursors} every search is a binary search and calls may overlap
   * ({@link NeighborSamplerFactory#createReentrant}).
   */
  UniformNeighborSampler(
      TemporalAdjacency rows,
      int[] fanouts,
      SnapshotWindows windows,
      int threads,
      long seed,
      boolean timeCursors) {
    this.engine =
        new ChunkedLayerSampler(
            rows, fanouts, windows, threads, seed, new UniformDraws(), timeCursors);
  }

  /** Single-threaded, without snapshots. */
  public UniformNeighborSampler(TemporalAdjacency rows, long seed, int... fanouts) {
    this(rows, fanouts, SnapshotWindows.NONE, 1, seed);
  }

  @Override
  public TemporalSample sample(int[] roots, double[] queryTimes, long stream, int[] rootKeys) {
    return engine.sample(roots, queryTimes, stream, rootKeys);
  }

  @Override
  public void reset() {
    engine.reset();
  }

  @Override
  public void close() {
    engine.close();
  }

  /** {@code n} SplitMix64 draws over the eligible positions, sorted. */
  private static final class UniformDraws implements ChunkedLayerSampler.NeighborPicker {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    @Override
    public int count(int eligible, int fanout) {
      return eligible > 0 ? fanout : 0;
    }

    @Override
    public void pick(int lo, int hi, int count, long rootSeed, int[] out, int at) {
      long eligible = hi - lo;
      long state = rootSeed;
      for (int k = 0; k < count; k++) {
        state += GOLDEN_GAMMA;
        long z = RandomStreams.mix(state);
        int position = lo + (int) (((z >>> 32) * eligible) >>> 32);
        int j = at + k; // insertion sort: the draws stay ascending
        while (j > at && out[j - 1] > position) {
          out[j] = out[j - 1];
          j--;
        }
        out[j] = position;
      }
    }

    @Override
    public boolean draws() {
      return true;
    }
  }
}
