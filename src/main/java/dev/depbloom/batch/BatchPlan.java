package dev.depbloom.batch;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts an event range into batches aligned to multiples of the batch size, as TGL does ({@code
 * index // batch_size}): the range {@code [700, 2000)} with size 600 gives {@code [700, 1200),
 * [1200, 1800), [1800, 2000)}. Alignment makes the batches of validation and test independent of
 * where training ended.
 */
public final class BatchPlan {
  private BatchPlan() {}

  /** The {@code [start, end)} bounds of each batch. */
  public static List<int[]> bounds(int from, int to, int batchSize) {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batch size must be positive");
    }
    List<int[]> out = new ArrayList<>();
    int start = from;
    while (start < to) {
      int end = Math.min(to, (start / batchSize + 1) * batchSize);
      out.add(new int[] {start, end});
      start = end;
    }
    return out;
  }
}
