package dev.depbloom.sampling;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * Temporal compressed sparse rows: for every node, its incident events sorted by (time, edge id).
 * With both directions, event {@code (u, v, t)} appears in u's row as neighbor v and in v's row as
 * neighbor u (a self-loop appears twice in its node's row).
 *
 * <p>Row of node v: positions {@code [offsets[v], offsets[v+1])} of {@link #neighbors()}, {@link
 * #edgeIds()} and {@link #times()}.
 */
public final class TemporalCsr implements TemporalAdjacency {
  private final int[] offsets; // [N + 1]
  private final int[] neighbors; // [entries]
  private final int[] edgeIds; // [entries]
  private final double[] times; // [entries], non-decreasing within a row

  private TemporalCsr(int[] offsets, int[] neighbors, int[] edgeIds, double[] times) {
    this.offsets = offsets;
    this.neighbors = neighbors;
    this.edgeIds = edgeIds;
    this.times = times;
  }

  /** Builds the CSR over all events of the stream. */
  public static TemporalCsr build(EventStream events, boolean bothDirections) {
    return build(events, events.eventCount(), bothDirections);
  }

  /** Builds the CSR over the first {@code eventLimit} events. Time O(E + N). */
  public static TemporalCsr build(EventStream events, int eventLimit, boolean bothDirections) {
    int n = events.nodeCount();
    int[] src = events.sources();
    int[] dst = events.destinations();
    double[] time = events.times();
    int[] offsets = new int[n + 1];
    for (int i = 0; i < eventLimit; i++) {
      offsets[src[i] + 1]++;
      if (bothDirections) {
        offsets[dst[i] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      offsets[v + 1] += offsets[v];
    }
    int entries = offsets[n];
    int[] neighbors = new int[entries];
    int[] edgeIds = new int[entries];
    double[] times = new double[entries];
    int[] fill = Arrays.copyOf(offsets, n);
    // Events arrive sorted by (time, id), so appending keeps every row sorted.
    for (int i = 0; i < eventLimit; i++) {
      int p = fill[src[i]]++;
      neighbors[p] = dst[i];
      edgeIds[p] = i;
      times[p] = time[i];
      if (bothDirections) {
        int q = fill[dst[i]]++;
        neighbors[q] = src[i];
        edgeIds[q] = i;
        times[q] = time[i];
      }
    }
    return new TemporalCsr(offsets, neighbors, edgeIds, times);
  }

  @Override
  public int nodeCount() {
    return offsets.length - 1;
  }

  /** Row start of node v; the row ends at {@code rowStart(v + 1)}. */
  @Override
  public int rowStart(int v) {
    return offsets[v];
  }

  @Override
  public int rowEnd(int v) {
    return offsets[v + 1];
  }

  /** All rows share one array. */
  @Override
  public int[] neighborsOf(int v) {
    return neighbors;
  }

  @Override
  public int[] edgeIdsOf(int v) {
    return edgeIds;
  }

  @Override
  public double[] timesOf(int v) {
    return times;
  }

  public int degree(int v) {
    return offsets[v + 1] - offsets[v];
  }

  /**
   * The first position in v's row whose time is at or after {@code t}, by binary search: the events
   * of v strictly before t are {@code [rowStart(v), result)}.
   */
  @Override
  public int firstAtOrAfter(int v, double t) {
    return firstAtOrAfter(v, offsets[v], offsets[v + 1], t);
  }

  /**
   * The first position in {@code [from, to)} whose time is at or after {@code t}, or {@code to};
   * the range must lie inside v's row. Lets a search start from a known position (a time pointer).
   */
  @Override
  public int firstAtOrAfter(int v, int from, int to, double t) {
    return TemporalAdjacency.firstAtOrAfter(times, from, to, t);
  }

  /** Shared arrays; callers must not modify them. */
  public int[] offsets() {
    return offsets;
  }

  public int[] neighbors() {
    return neighbors;
  }

  public int[] edgeIds() {
    return edgeIds;
  }

  public double[] times() {
    return times;
  }
}
