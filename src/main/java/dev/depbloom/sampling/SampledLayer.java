package dev.depbloom.sampling;

import java.util.Arrays;

/**
 * One layer of a temporal neighborhood sample, in CSR form over the roots: the samples of root
 * {@code r} are positions {@code [offsets[r], offsets[r+1])}, at most {@code fanout} of them,
 * ordered oldest to newest. Every sampled edge is strictly earlier than its root's query time.
 *
 * <p>The flat primitive arrays go to tensors in one bulk copy each. {@link #slot(int)} places a
 * sample in the dense {@code [rootCount, fanout]} grid, for padded layouts.
 */
public final class SampledLayer {
  private final int fanout;
  private final int[] offsets; // [rootCount + 1]
  private final int[] nodes; // [sampleCount] the neighbor node
  private final int[] edgeIds; // [sampleCount] the event that links it to the root
  private final double[] edgeTimes; // [sampleCount] that event's time
  private final float[] timeDeltas; // [sampleCount] root query time - edge time, > 0

  public SampledLayer(
      int fanout,
      int[] offsets,
      int[] nodes,
      int[] edgeIds,
      double[] edgeTimes,
      float[] timeDeltas) {
    int count = offsets[offsets.length - 1];
    if (nodes.length != count
        || edgeIds.length != count
        || edgeTimes.length != count
        || timeDeltas.length != count) {
      throw new IllegalArgumentException("sample columns differ in length from the offsets");
    }
    this.fanout = fanout;
    this.offsets = offsets;
    this.nodes = nodes;
    this.edgeIds = edgeIds;
    this.edgeTimes = edgeTimes;
    this.timeDeltas = timeDeltas;
  }

  public int rootCount() {
    return offsets.length - 1;
  }

  public int fanout() {
    return fanout;
  }

  public int sampleCount() {
    return offsets[offsets.length - 1];
  }

  /** Number of samples of root r, at most the fanout. */
  public int countOf(int root) {
    return offsets[root + 1] - offsets[root];
  }

  /** Position of sample i in the dense {@code [rootCount, fanout]} grid, samples left-aligned. */
  public int slot(int sample) {
    int root = rootOf(sample);
    return root * fanout + (sample - offsets[root]);
  }

  /** The root that sample i belongs to (binary search over the offsets). */
  public int rootOf(int sample) {
    int lo = 0;
    int hi = offsets.length - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (offsets[mid] <= sample) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Root index of every sample: {@code [sampleCount]}. */
  public int[] rootIndex() {
    int[] out = new int[sampleCount()];
    for (int r = 0; r < rootCount(); r++) {
      Arrays.fill(out, offsets[r], offsets[r + 1], r);
    }
    return out;
  }

  /** Shared arrays; callers must not modify them. */
  public int[] offsets() {
    return offsets;
  }

  public int[] nodes() {
    return nodes;
  }

  public int[] edgeIds() {
    return edgeIds;
  }

  public double[] edgeTimes() {
    return edgeTimes;
  }

  public float[] timeDeltas() {
    return timeDeltas;
  }
}
