package dev.depbloom.batch;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * A batch of events in time order and its roots, laid out {@code [src | dst | neg_1 | ... | neg_k]}
 * (TGL's layout): root {@code i < B} is the source of event {@code events[i]}, root {@code B + i}
 * its destination, root {@code (1 + j) B + i} its j-th negative destination; all are queried at the
 * event's time. Most batches are consecutive events; a sub-chain's micro-batch (DepBloom) is not.
 * Training uses one negative per event; a memory-only replay none.
 *
 * @param index position of the batch in its plan
 * @param events {@code [B]} stream indices of the events, increasing
 * @param roots {@code [(2 + k) B]} node ids
 * @param rootTimes {@code [(2 + k) B]} query times
 */
public record Batch(int index, int[] events, int[] roots, double[] rootTimes) {
  public Batch {
    int b = events.length;
    if (b == 0
        || roots.length < 2 * b
        || roots.length % b != 0
        || rootTimes.length != roots.length) {
      throw new IllegalArgumentException(
          "roots must be [src | dst | neg...] of the batch's events");
    }
  }

  /**
   * Builds the roots of events {@code [start, end)}; {@code negatives} holds k negatives per event,
   * negative-major ({@code negatives[j * B + i]} is negative j of event i).
   */
  public static Batch of(EventStream events, int index, int start, int end, int[] negatives) {
    if (end <= start) {
      throw new IllegalArgumentException("empty batch [" + start + ", " + end + ")");
    }
    int[] ids = new int[end - start];
    Arrays.setAll(ids, i -> start + i);
    return ofEvents(events, index, ids, negatives);
  }

  /**
   * Builds the roots of the events {@code eventIds} (increasing stream indices); {@code negatives}
   * as for {@link #of}.
   */
  public static Batch ofEvents(EventStream events, int index, int[] eventIds, int[] negatives) {
    int b = eventIds.length;
    if (b == 0 || negatives.length % b != 0) {
      throw new IllegalArgumentException("a whole number of negatives per event expected");
    }
    int width = 2 * b + negatives.length;
    int[] roots = new int[width];
    double[] times = new double[width];
    int[] src = events.sources();
    int[] dst = events.destinations();
    double[] t = events.times();
    for (int i = 0; i < b; i++) {
      int e = eventIds[i];
      roots[i] = src[e];
      roots[b + i] = dst[e];
      for (int k = 0; k < width / b; k++) {
        times[k * b + i] = t[e];
      }
    }
    System.arraycopy(negatives, 0, roots, 2 * b, negatives.length);
    return new Batch(index, eventIds.clone(), roots, times);
  }

  /** Number of events B. */
  public int size() {
    return events.length;
  }

  /** The stream index of the batch's first event. */
  public int start() {
    return events[0];
  }

  /** The stream index of event {@code i} of the batch. */
  public int event(int i) {
    return events[i];
  }

  /** Negatives per event, k. */
  public int negativesPerEvent() {
    return roots.length / size() - 2;
  }

  /**
   * The same events with only negatives {@code [first, first + count)}: one group of a pass that
   * scores many negatives a few at a time. Sample its neighborhoods under the root keys {@link
   * #negativeGroupPositions} to get those of one pass over the whole batch.
   */
  public Batch negativeGroup(int first, int count) {
    int[] positions = negativeGroupPositions(first, count);
    int[] r = new int[positions.length];
    double[] t = new double[positions.length];
    for (int p = 0; p < positions.length; p++) {
      r[p] = roots[positions[p]];
      t[p] = rootTimes[positions[p]];
    }
    return new Batch(index, events, r, t);
  }

  /**
   * Position in this batch of each root of {@link #negativeGroup}{@code (first, count)}: {@code [0,
   * 2B)} for the true endpoints, then {@code [(2 + first) B, (2 + first + count) B)}.
   */
  public int[] negativeGroupPositions(int first, int count) {
    int b = size();
    int k = negativesPerEvent();
    if (first < 0 || count < 1 || first + count > k) {
      throw new IllegalArgumentException(
          "negatives [" + first + ", " + (first + count) + ") of a batch with " + k + " per event");
    }
    int[] positions = new int[(2 + count) * b];
    for (int p = 0; p < positions.length; p++) {
      positions[p] = p < 2 * b ? p : (2 + first) * b + (p - 2 * b);
    }
    return positions;
  }

  /**
   * Events {@code [from, to)} of this batch with their own roots (sources, destinations and
   * negatives, in the same layout); the index stays this batch's.
   */
  public Batch slice(int from, int to) {
    int b = size();
    if (from < 0 || to > b || from >= to) {
      throw new IllegalArgumentException("slice [" + from + ", " + to + ") of a batch of " + b);
    }
    int n = to - from;
    int blocks = roots.length / b;
    int[] r = new int[blocks * n];
    double[] t = new double[blocks * n];
    for (int k = 0; k < blocks; k++) {
      System.arraycopy(roots, k * b + from, r, k * n, n);
      System.arraycopy(rootTimes, k * b + from, t, k * n, n);
    }
    return new Batch(index, Arrays.copyOfRange(events, from, to), r, t);
  }
}
