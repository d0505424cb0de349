package dev.depbloom.sampling;

/**
 * Per node, its incident events ordered by (time, edge id), oldest first: the rows a sampler reads.
 * The row of node v is positions {@code [rowStart(v), rowEnd(v))} of the arrays {@link
 * #neighborsOf}, {@link #edgeIdsOf} and {@link #timesOf} of v. A fixed stream keeps every row in
 * one flat array ({@link TemporalCsr}); a growing one keeps an array per node ({@link
 * LiveNeighborIndex}). A sampler's results depend only on the rows' contents, never on where they
 * are stored.
 *
 * <p>The arrays are shared, not copied: callers must not modify them.
 */
public interface TemporalAdjacency {
  /** Nodes {@code 0..nodeCount()-1} have a row (possibly empty). */
  int nodeCount();

  /** First position of v's row in v's arrays. */
  int rowStart(int v);

  /** End of v's row in v's arrays, excluded. */
  int rowEnd(int v);

  /** The array that holds v's neighbors at positions {@code [rowStart(v), rowEnd(v))}. */
  int[] neighborsOf(int v);

  /** The array that holds the edge ids of v's row. */
  int[] edgeIdsOf(int v);

  /** The array that holds the times of v's row, non-decreasing over the row. */
  double[] timesOf(int v);

  /**
   * The first position in v's row whose time is at or after {@code t}, by binary search: the events
   * of v strictly before t are {@code [rowStart(v), result)}.
   */
  default int firstAtOrAfter(int v, double t) {
    return firstAtOrAfter(v, rowStart(v), rowEnd(v), t);
  }

  /**
   * The first position in {@code [from, to)} of v's row whose time is at or after {@code t}, or
   * {@code to}. Lets a search start from a known position (a time pointer).
   */
  default int firstAtOrAfter(int v, int from, int to, double t) {
    return firstAtOrAfter(timesOf(v), from, to, t);
  }

  /**
   * The first position in {@code [from, to)} of the ascending {@code times} whose time is at or
   * after {@code t}, or {@code to}: the binary search every implementation shares.
   */
  static int firstAtOrAfter(double[] times, int from, int to, double t) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (times[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
