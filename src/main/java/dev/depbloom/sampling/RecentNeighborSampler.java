package dev.depbloom.sampling;

/**
 * The {@code recent} strategy (TGN, APAN, JODIE-style models in TGL): per layer, each root gets its
 * last {@code n} incident events strictly before its query time, ordered oldest to newest; events
 * at the query time itself are excluded; a root with fewer earlier events gets all of them. "Last"
 * follows the row order of {@link TemporalAdjacency}, (time, event id), so among events with equal
 * times the higher event ids are the more recent. A self-loop counts twice, as it appears twice in
 * its node's row.
 *
 * <p>Layer {@code l + 1}'s roots are layer {@code l}'s samples, queried at their edge times; with
 * {@link SnapshotWindows} the last {@code n} events inside each snapshot's window are taken, all
 * layers queried at the first layer's time.
 *
 * <p>When calls come in time order (training walks batches in time order), per-node time pointers
 * make the first layer's search O(1) amortised (TGL's technique, Zhou et al., "TGL: A General
 * Framework for Temporal GNN Training on Billion-Scale Graphs", VLDB 2022). Out-of-order calls and
 * deeper layers fall back to binary search; results are the same either way. {@link #reset()}
 * rewinds the pointers (new epoch, replay before evaluation).
 */
public final class RecentNeighborSampler implements NeighborSampler {
  private final ChunkedLayerSampler engine;

  /**
   * @param fanouts samples per root, one entry per layer ({@code [10]} for TGN)
   * @param threads threads that sample, the caller's included; the sampler owns {@code threads - 1}
   *     of them until {@link #close()}
   */
  public RecentNeighborSampler(
      TemporalAdjacency rows, int[] fanouts, SnapshotWindows windows, int threads) {
    this(rows, fanouts, windows, threads, true);
  }

  /**
   * As above; without {@code timeCursors} every search is a binary search and calls may overlap
   * ({@link NeighborSamplerFactory#createReentrant}).
   */
  RecentNeighborSampler(
      TemporalAdjacency rows,
      int[] fanouts,
      SnapshotWindows windows,
      int threads,
      boolean timeCursors) {
    this.engine =
        new ChunkedLayerSampler(rows, fanouts, windows, threads, 0, new MostRecent(), timeCursors);
  }

  /** Single-threaded, without snapshots. */
  public RecentNeighborSampler(TemporalAdjacency rows, int... fanouts) {
    this(rows, fanouts, SnapshotWindows.NONE, 1);
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

  /** The last {@code min(n, eligible)} positions. */
  private static final class MostRecent implements ChunkedLayerSampler.NeighborPicker {
    @Override
    public int count(int eligible, int fanout) {
      return Math.min(eligible, fanout);
    }

    @Override
    public void pick(int lo, int hi, int count, long rootSeed, int[] out, int at) {
      for (int k = 0; k < count; k++) {
        out[at + k] = hi - count + k;
      }
    }

    @Override
    public boolean draws() {
      return false;
    }
  }
}
