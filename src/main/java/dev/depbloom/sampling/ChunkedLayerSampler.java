package dev.depbloom.sampling;

import dev.depbloom.data.RandomStreams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What every sampling strategy shares: snapshots, layers, time pointers, threads and the
 * CSR-over-roots output. A strategy only says, through a {@link NeighborPicker}, which of a root's
 * eligible row positions it takes.
 *
 * <p>Per snapshot and layer, roots are cut into contiguous chunks, at most one per thread and only
 * as many as the layer's work is worth ({@link RootChunkPool#MIN_CHUNK_WORK}), and processed in two
 * passes: <em>count</em> finds every root's eligible positions {@code [lo, hi)} in its row and how
 * many samples it gets; a prefix sum over the counts gives the offsets; <em>fill</em> writes each
 * root's samples at its offset. Threads write disjoint ranges, so there are no locks and the output
 * does not depend on the number of threads.
 *
 * <p>Before each call the time pointers of the call's roots move forward to the call's earliest
 * query time (one pointer table per window boundary); searches then start from the pointers when
 * they can (see {@link ForwardRowPointers}), which changes speed, never results. Without time
 * pointers every search is a binary search over the row, and calls may overlap: the sampler then
 * holds no state that a call changes (with one thread, it starts none either).
 */
final class ChunkedLayerSampler implements AutoCloseable {
  /** How a strategy chooses among a root's eligible row positions {@code [lo, hi)}. */
  interface NeighborPicker {
    /** Samples a root gets when {@code eligible} positions qualify. At most the fanout. */
    int count(int eligible, int fanout);

    /**
     * Writes {@code count} positions of {@code [lo, hi)}, ascending, to {@code out[at..]}. {@code
     * rootSeed} names the root's random stream, for strategies that draw.
     */
    void pick(int lo, int hi, int count, long rootSeed, int[] out, int at);

    /** True when {@link #pick} uses its seed, so the per-root seed is worth deriving. */
    boolean draws();
  }

  private static final long COMPONENT = RandomStreams.key("neighbor-sampling");

  private final TemporalAdjacency rows;
  private final int[] fanouts; // [layers]
  private final SnapshotWindows windows;
  private final NeighborPicker picker;
  private final long seed;
  private final ForwardRowPointers[] pointers; // [boundaries]: table k follows boundary k; or null
  private final RootChunkPool pool;

  /**
   * @param timeCursors whether to keep TGL's forward time pointers (calls must then not overlap),
   *     or to binary-search every row (calls may overlap)
   */
  ChunkedLayerSampler(
      TemporalAdjacency rows,
      int[] fanouts,
      SnapshotWindows windows,
      int threads,
      long seed,
      NeighborPicker picker,
      boolean timeCursors) {
    if (fanouts.length == 0) {
      throw new IllegalArgumentException("at least one layer (fanout) is needed");
    }
    for (int l = 0; l < fanouts.length; l++) {
      if (fanouts[l] < 1) {
        throw new IllegalArgumentException(
            "fanout of layer " + l + " must be at least 1, got " + fanouts[l]);
      }
    }
    this.rows = rows;
    this.fanouts = fanouts.clone();
    this.windows = windows;
    this.picker = picker;
    this.seed = seed;
    if (timeCursors) {
      this.pointers = new ForwardRowPointers[windows.windowed() ? windows.history() + 1 : 1];
      for (int k = 0; k < pointers.length; k++) {
        pointers[k] = new ForwardRowPointers(rows);
      }
    } else {
      this.pointers = null;
    }
    this.pool = new RootChunkPool(threads);
  }

  /**
   * @param rootKeys key of each root's random stream, {@code [R]}; a sample {@code i} of a root
   *     with key {@code k} is keyed {@code k * fanout + i} as a root of the next layer
   */
  TemporalSample sample(int[] roots, double[] queryTimes, long stream, int[] rootKeys) {
    if (rootKeys.length != roots.length) {
      throw new IllegalArgumentException(
          roots.length + " roots but " + rootKeys.length + " root keys");
    }
    advancePointers(roots, queryTimes);
    long[] keys = new long[rootKeys.length];
    for (int r = 0; r < keys.length; r++) {
      keys[r] = rootKeys[r];
    }
    List<List<SampledLayer>> snapshots = new ArrayList<>(windows.history());
    for (int s = 0; s < windows.history(); s++) {
      snapshots.add(sampleSnapshot(roots, queryTimes, keys, s, stream));
    }
    return new TemporalSample(snapshots);
  }

  void reset() {
    if (pointers != null) {
      for (ForwardRowPointers table : pointers) {
        table.reset();
      }
    }
  }

  @Override
  public void close() {
    pool.close();
  }

  /** Checks the roots and moves the pointers of their nodes to the earliest query time. */
  private void advancePointers(int[] roots, double[] queryTimes) {
    if (roots.length != queryTimes.length) {
      throw new IllegalArgumentException(
          roots.length + " roots but " + queryTimes.length + " query times");
    }
    double earliest = Double.POSITIVE_INFINITY;
    for (int r = 0; r < roots.length; r++) {
      if (roots[r] < 0 || roots[r] >= rows.nodeCount()) {
        throw new IllegalArgumentException(
            "root " + r + " is node " + roots[r] + ", outside 0.." + (rows.nodeCount() - 1));
      }
      if (Double.isNaN(queryTimes[r])) {
        throw new IllegalArgumentException("root " + r + " has a NaN query time");
      }
      earliest = Math.min(earliest, queryTimes[r]);
    }
    if (roots.length > 0 && pointers != null) {
      for (int k = 0; k < pointers.length; k++) {
        pointers[k].advance(roots, windows.boundary(earliest, k));
      }
    }
  }

  private List<SampledLayer> sampleSnapshot(
      int[] roots, double[] queryTimes, long[] rootKeys, int snapshot, long stream) {
    List<SampledLayer> layers = new ArrayList<>(fanouts.length);
    int[] nodes = roots;
    double[] times = queryTimes;
    long[] keys = rootKeys;
    for (int l = 0; l < fanouts.length; l++) {
      boolean deeper = l + 1 < fanouts.length;
      boolean propagate = windows.windowed() && deeper;
      long layerSeed = RandomStreams.derive(seed, COMPONENT, stream, snapshot, l);
      LayerRun run =
          new LayerRun(
              nodes,
              times,
              keys,
              fanouts[l],
              snapshot,
              layerSeed,
              propagate,
              deeper && picker.draws());
      pool.forEachChunk(nodes.length, fanouts[l], run::count);
      run.allocate();
      pool.forEachChunk(nodes.length, fanouts[l], run::fill);
      SampledLayer layer = run.layer();
      layers.add(layer);
      nodes = layer.nodes();
      times = propagate ? run.propagatedTimes : layer.edgeTimes();
      keys = run.childKeys;
    }
    return layers;
  }

  /**
   * The first position of v's row at or after {@code t}, searched from the pointers that follow
   * window boundary {@code boundary}, or by binary search without pointers.
   */
  private int firstAtOrAfter(int boundary, int v, double t) {
    return pointers == null ? rows.firstAtOrAfter(v, t) : pointers[boundary].firstAtOrAfter(v, t);
  }

  /** One layer of one snapshot: its inputs, the per-root search results and the output columns. */
  private final class LayerRun {
    private final int[] roots; // [R]
    private final double[] queryTimes; // [R]
    private final long[] keys; // [R] random-stream key of each root; unused without draws
    private final int fanout;
    private final int startBoundary; // -1 without windows
    private final int endBoundary;
    private final int snapshot;
    private final long layerSeed;
    private final boolean propagate;
    private final boolean keyChildren;
    private final int[] lo; // [R] first eligible row position
    private final int[] hi; // [R] end of the eligible positions
    private final int[] offsets; // [R + 1]
    private int[] nodes; // [S]
    private int[] edgeIds; // [S]; holds row positions between pick and gather
    private double[] edgeTimes; // [S]
    private float[] timeDeltas; // [S]
    private double[] propagatedTimes; // [S] the root's query time, for the next layer, or null
    private long[] childKeys; // [S] the next layer's root keys, or null when nothing draws there

    LayerRun(
        int[] roots,
        double[] queryTimes,
        long[] keys,
        int fanout,
        int snapshot,
        long layerSeed,
        boolean propagate,
        boolean keyChildren) {
      this.roots = roots;
      this.queryTimes = queryTimes;
      this.keys = keys;
      this.fanout = fanout;
      this.snapshot = snapshot;
      this.layerSeed = layerSeed;
      this.propagate = propagate;
      this.keyChildren = keyChildren;
      int h = windows.history();
      this.startBoundary = windows.windowed() ? h - snapshot : -1;
      this.endBoundary = h - 1 - snapshot;
      this.lo = new int[roots.length];
      this.hi = new int[roots.length];
      this.offsets = new int[roots.length + 1];
    }

    /** Pass 1: eligible positions and sample count of roots {@code [from, to)}. */
    void count(int from, int to) {
      for (int r = from; r < to; r++) {
        int v = roots[r];
        double t = queryTimes[r];
        int end = firstAtOrAfter(endBoundary, v, windows.windowEnd(t, snapshot));
        int start =
            startBoundary < 0
                ? rows.rowStart(v)
                : firstAtOrAfter(startBoundary, v, windows.windowStart(t, snapshot));
        lo[r] = start;
        hi[r] = end;
        offsets[r + 1] = picker.count(end - start, fanout);
      }
    }

    /** Between the passes: counts to offsets, and the output columns. */
    void allocate() {
      for (int r = 0; r < roots.length; r++) {
        offsets[r + 1] += offsets[r];
      }
      int samples = offsets[roots.length];
      nodes = new int[samples];
      edgeIds = new int[samples];
      edgeTimes = new double[samples];
      timeDeltas = new float[samples];
      propagatedTimes = propagate ? new double[samples] : null;
      childKeys = keyChildren ? new long[samples] : null;
    }

    /** Pass 2: picks and writes the samples of roots {@code [from, to)}. */
    void fill(int from, int to) {
      boolean draws = picker.draws();
      for (int r = from; r < to; r++) {
        int at = offsets[r];
        int count = offsets[r + 1] - at;
        if (count == 0) {
          continue;
        }
        int v = roots[r];
        int[] rowNeighbors = rows.neighborsOf(v);
        int[] rowEdgeIds = rows.edgeIdsOf(v);
        double[] rowTimes = rows.timesOf(v);
        long rootSeed = draws ? RandomStreams.extend(layerSeed, keys[r]) : 0;
        picker.pick(lo[r], hi[r], count, rootSeed, edgeIds, at);
        double t = queryTimes[r];
        for (int j = at; j < at + count; j++) {
          int position = edgeIds[j];
          double edgeTime = rowTimes[position];
          nodes[j] = rowNeighbors[position];
          edgeIds[j] = rowEdgeIds[position];
          edgeTimes[j] = edgeTime;
          timeDeltas[j] = (float) (t - edgeTime);
        }
        if (propagatedTimes != null) {
          Arrays.fill(propagatedTimes, at, at + count, t);
        }
        if (childKeys != null) {
          for (int i = 0; i < count; i++) {
            childKeys[at + i] = keys[r] * fanout + i;
          }
        }
      }
    }

    SampledLayer layer() {
      return new SampledLayer(fanout, offsets, nodes, edgeIds, edgeTimes, timeDeltas);
    }
  }
}
