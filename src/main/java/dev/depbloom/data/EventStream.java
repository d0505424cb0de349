package dev.depbloom.data;

import java.util.Arrays;
import java.util.Objects;

/**
 * A continuous-time dynamic graph: events {@code (src, dst, time)} sorted by time, stored
 * column-wise in primitive arrays. Event {@code i} is also edge id {@code i}: row {@code i} of the
 * edge features.
 *
 * <p>Invariants (checked on construction): ids in {@code 0..nodeCount-1}; times finite and
 * non-decreasing; feature matrices with one row per event / node; split labels, where present, in
 * {@code 0..2} and non-decreasing.
 *
 * <p>The arrays returned by accessors are shared, not copied: callers must not modify them.
 */
public final class EventStream {
  private final int[] src; // [E]
  private final int[] dst; // [E]
  private final double[] time; // [E], non-decreasing
  private final byte[] extRoll; // [E] 0 train / 1 val / 2 test, or null
  private final FeatureMatrix edgeFeatures; // [E, edgeFeatureDim]
  private final FeatureMatrix nodeFeatures; // [N, nodeFeatureDim]
  private final NodeIdMap nodeIds; // dense <-> original, size N
  private final boolean bipartite;
  private final IngestReport ingest;

  public EventStream(
      int[] src,
      int[] dst,
      double[] time,
      byte[] extRoll,
      FeatureMatrix edgeFeatures,
      FeatureMatrix nodeFeatures,
      NodeIdMap nodeIds,
      boolean bipartite,
      IngestReport ingest) {
    this.src = Objects.requireNonNull(src);
    this.dst = Objects.requireNonNull(dst);
    this.time = Objects.requireNonNull(time);
    this.extRoll = extRoll;
    this.nodeIds = Objects.requireNonNull(nodeIds);
    this.edgeFeatures = edgeFeatures != null ? edgeFeatures : FeatureMatrix.empty(src.length);
    this.nodeFeatures = nodeFeatures != null ? nodeFeatures : FeatureMatrix.empty(nodeIds.size());
    this.bipartite = bipartite;
    this.ingest = Objects.requireNonNull(ingest);
    checkInvariants();
  }

  private void checkInvariants() {
    int e = src.length;
    int n = nodeIds.size();
    if (dst.length != e || time.length != e || (extRoll != null && extRoll.length != e)) {
      throw new IllegalArgumentException("event columns differ in length");
    }
    if (edgeFeatures.rows() != e) {
      throw new IllegalArgumentException(
          "edge features have " + edgeFeatures.rows() + " rows for " + e + " events");
    }
    if (nodeFeatures.rows() != n) {
      throw new IllegalArgumentException(
          "node features have " + nodeFeatures.rows() + " rows for " + n + " nodes");
    }
    for (int i = 0; i < e; i++) {
      if (src[i] < 0 || src[i] >= n || dst[i] < 0 || dst[i] >= n) {
        throw new IllegalArgumentException("event " + i + " has a node id outside 0.." + (n - 1));
      }
      if (!Double.isFinite(time[i]) || (i > 0 && time[i] < time[i - 1])) {
        throw new IllegalArgumentException("event " + i + " is not in time order");
      }
      if (extRoll != null
          && (extRoll[i] < 0 || extRoll[i] > 2 || (i > 0 && extRoll[i] < extRoll[i - 1]))) {
        throw new IllegalArgumentException("event " + i + " has a split label out of order");
      }
    }
  }

  public int eventCount() {
    return src.length;
  }

  public int nodeCount() {
    return nodeIds.size();
  }

  /** Source node of every event, by event index. */
  public int[] sources() {
    return src;
  }

  /** Destination node of every event, by event index. */
  public int[] destinations() {
    return dst;
  }

  /** Event times, non-decreasing. */
  public double[] times() {
    return time;
  }

  /** TGL's {@code ext_roll} split label per event (0 train, 1 val, 2 test), or null. */
  public byte[] splitLabels() {
    return extRoll;
  }

  public FeatureMatrix edgeFeatures() {
    return edgeFeatures;
  }

  public FeatureMatrix nodeFeatures() {
    return nodeFeatures;
  }

  /** The edge and node features, as a model reads them. */
  public StreamFeatures features() {
    return new StreamFeatures(edgeFeatures, nodeFeatures);
  }

  public NodeIdMap nodeIds() {
    return nodeIds;
  }

  /** True when no node is both a source and a destination (JODIE's user-item graphs). */
  public boolean bipartite() {
    return bipartite;
  }

  public IngestReport ingest() {
    return ingest;
  }

  /** Distinct destination nodes, ascending: the negative pool of a bipartite graph. */
  public int[] destinationNodes() {
    boolean[] isDst = new boolean[nodeCount()];
    for (int d : dst) {
      isDst[d] = true;
    }
    int[] out = new int[nodeCount()];
    int k = 0;
    for (int v = 0; v < isDst.length; v++) {
      if (isDst[v]) {
        out[k++] = v;
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** True when some node is both a source and a destination of events. */
  public static boolean sharesNodes(int[] src, int[] dst, int nodeCount) {
    boolean[] isSrc = new boolean[nodeCount];
    for (int s : src) {
      isSrc[s] = true;
    }
    for (int d : dst) {
      if (isSrc[d]) {
        return true;
      }
    }
    return false;
  }

  /** This stream with other edge features (e.g. zero features of a given width). */
  public EventStream withEdgeFeatures(FeatureMatrix features) {
    return new EventStream(
        src, dst, time, extRoll, features, nodeFeatures, nodeIds, bipartite, ingest);
  }

  /**
   * This stream with times relative to its first event, so that it starts at 0 as TGL's data sets
   * and the reference trainer do. Memory starts dated 0, and JODIE's projection and the time
   * encoding of a node's first read depend on that origin. Returns this stream if it starts at 0.
   */
  public EventStream relativeToFirstEvent() {
    if (time.length == 0 || time[0] == 0) {
      return this;
    }
    double origin = time[0];
    double[] shifted = new double[time.length];
    for (int i = 0; i < time.length; i++) {
      shifted[i] = time[i] - origin;
    }
    return new EventStream(
        src, dst, shifted, extRoll, edgeFeatures, nodeFeatures, nodeIds, bipartite, ingest);
  }

  /** This stream with the bipartite flag overridden. */
  public EventStream withBipartite(boolean value) {
    return new EventStream(
        src, dst, time, extRoll, edgeFeatures, nodeFeatures, nodeIds, value, ingest);
  }
}
