package dev.depbloom.batch;

import dev.depbloom.data.EventStream;

/**
 * A batch of consecutive events {@code [start, end)} and its roots, laid out {@code [src | dst |
 * neg]} (TGL's layout): root {@code i < B} is the source of event {@code start + i}, root {@code B
 * + i} its destination, root {@code 2B + i} its negative destination; all three are queried at the
 * event's time.
 *
 * @param index position of the batch in its plan
 * @param roots {@code [3B]} node ids
 * @param rootTimes {@code [3B]} query times
 */
public record Batch(int index, int start, int end, int[] roots, double[] rootTimes) {
  public Batch {
    if (roots.length != 3 * (end - start) || rootTimes.length != roots.length) {
      throw new IllegalArgumentException("roots must be [src | dst | neg] of the batch's events");
    }
  }

  /** Builds the roots of events {@code [start, end)} with the given negatives. */
  public static Batch of(EventStream events, int index, int start, int end, int[] negatives) {
    int b = end - start;
    if (negatives.length != b) {
      throw new IllegalArgumentException("one negative per event expected");
    }
    int[] roots = new int[3 * b];
    double[] times = new double[3 * b];
    System.arraycopy(events.sources(), start, roots, 0, b);
    System.arraycopy(events.destinations(), start, roots, b, b);
    System.arraycopy(negatives, 0, roots, 2 * b, b);
    for (int k = 0; k < 3; k++) {
      System.arraycopy(events.times(), start, times, k * b, b);
    }
    return new Batch(index, start, end, roots, times);
  }

  /** Number of events B. */
  public int size() {
    return end - start;
  }
}
