package dev.depbloom.sampling;

import java.util.Arrays;

/**
 * TGL's per-node time pointers: for every node a position in its {@link TemporalAdjacency} row that
 * only moves forward while queries come in time order, so "the events of v strictly before t" costs
 * O(1) amortised instead of a binary search over the row.
 *
 * <p>Invariant: every position of v's row before {@code position[v]} has a time strictly before
 * {@code reachedTime[v]}. A query {@code (v, t)} with {@code t >= reachedTime[v]} therefore starts
 * at {@code position[v]}; an earlier query falls back to a binary search over the whole row. Either
 * way {@link #firstAtOrAfter} returns exactly {@link TemporalAdjacency#firstAtOrAfter(int,
 * double)}. Rows may grow at their end between calls ({@link LiveNeighborIndex}): events appended
 * in time order keep the invariant.
 *
 * <p>Threads: {@link #advance} and {@link #reset} write and must run alone; {@link #firstAtOrAfter}
 * only reads and may run on many threads between them.
 */
final class ForwardRowPointers {
  /** Positions probed one by one before switching to a binary search over the rest of the row. */
  private static final int LINEAR_PROBES = 8;

  private final TemporalAdjacency rows;
  private final int[] position; // [N], inside v's row
  private final double[] reachedTime; // [N], -inf after a reset

  ForwardRowPointers(TemporalAdjacency rows) {
    this.rows = rows;
    this.position = new int[rows.nodeCount()];
    this.reachedTime = new double[rows.nodeCount()];
    reset();
  }

  /** Rewinds every pointer to the start of its row. */
  void reset() {
    for (int v = 0; v < position.length; v++) {
      position[v] = rows.rowStart(v);
    }
    Arrays.fill(reachedTime, Double.NEGATIVE_INFINITY);
  }

  /** Moves the pointers of {@code nodes} forward to {@code time}; never moves one back. */
  void advance(int[] nodes, double time) {
    for (int v : nodes) {
      if (time > reachedTime[v]) {
        position[v] = seek(v, position[v], rows.rowEnd(v), time);
        reachedTime[v] = time;
      }
    }
  }

  /** The first position in v's row whose time is at or after t. */
  int firstAtOrAfter(int v, double t) {
    if (t < reachedTime[v]) {
      return rows.firstAtOrAfter(v, t);
    }
    return seek(v, position[v], rows.rowEnd(v), t);
  }

  /** First position in {@code [from, to)} at or after t: a few linear probes, then bisection. */
  private int seek(int v, int from, int to, double t) {
    double[] times = rows.timesOf(v);
    int p = from;
    for (int probe = 0; probe < LINEAR_PROBES; probe++, p++) {
      if (p == to || times[p] >= t) {
        return p;
      }
    }
    return rows.firstAtOrAfter(v, p, to, t);
  }
}
