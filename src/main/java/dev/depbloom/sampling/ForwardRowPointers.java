package dev.depbloom.sampling;

import java.util.Arrays;

/**
 * TGL's per-node time pointers: for every node a position in its {@link TemporalCsr} row that only
 * moves forward while queries come in time order, so "the events of v strictly before t" costs O(1)
 * amortised instead of a binary search over the row.
 *
 * <p>Invariant: every position of v's row before {@code position[v]} has a time strictly before
 * {@code reachedTime[v]}. A query {@code (v, t)} with {@code t >= reachedTime[v]} therefore starts
 * at {@code position[v]}; an earlier query falls back to a binary search over the whole row. Either
 * way {@link #firstAtOrAfter} returns exactly {@link TemporalCsr#firstAtOrAfter(int, double)}.
 *
 * <p>Threads: {@link #advance} and {@link #reset} write and must run alone; {@link #firstAtOrAfter}
 * only reads and may run on many threads between them.
 */
final class ForwardRowPointers {
  /** Positions probed one by one before switching to a binary search over the rest of the row. */
  private static final int LINEAR_PROBES = 8;

  private final TemporalCsr csr;
  private final int[] rowOffsets; // [N + 1]
  private final double[] times; // [entries]
  private final int[] position; // [N], inside v's row
  private final double[] reachedTime; // [N], -inf after a reset

  ForwardRowPointers(TemporalCsr csr) {
    this.csr = csr;
    this.rowOffsets = csr.offsets();
    this.times = csr.times();
    this.position = new int[csr.nodeCount()];
    this.reachedTime = new double[csr.nodeCount()];
    reset();
  }

  /** Rewinds every pointer to the start of its row. */
  void reset() {
    System.arraycopy(rowOffsets, 0, position, 0, position.length);
    Arrays.fill(reachedTime, Double.NEGATIVE_INFINITY);
  }

  /** Moves the pointers of {@code nodes} forward to {@code time}; never moves one back. */
  void advance(int[] nodes, double time) {
    for (int v : nodes) {
      if (time > reachedTime[v]) {
        position[v] = seek(position[v], rowOffsets[v + 1], time);
        reachedTime[v] = time;
      }
    }
  }

  /** The first position in v's row whose time is at or after t. */
  int firstAtOrAfter(int v, double t) {
    if (t < reachedTime[v]) {
      return csr.firstAtOrAfter(v, t);
    }
    return seek(position[v], rowOffsets[v + 1], t);
  }

  /** First position in {@code [from, to)} at or after t: a few linear probes, then bisection. */
  private int seek(int from, int to, double t) {
    int p = from;
    for (int probe = 0; probe < LINEAR_PROBES; probe++, p++) {
      if (p == to || times[p] >= t) {
        return p;
      }
    }
    return csr.firstAtOrAfter(p, to, t);
  }
}
