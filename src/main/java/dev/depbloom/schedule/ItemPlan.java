package dev.depbloom.schedule;

import java.util.Arrays;

/**
 * One logical device's work item in a round: events (stream indices, increasing) read from and
 * written to memory view {@code view}. For {@code sequential} and {@code disttgl} the events are a
 * consecutive range; for a DepBloom sub-chain they are the chain's events.
 */
public record ItemPlan(int device, int view, int[] events) {
  public ItemPlan {
    if (events.length == 0) {
      throw new IllegalArgumentException("empty work item of device " + device);
    }
  }

  /** The consecutive events {@code [start, end)}. */
  public static ItemPlan range(int device, int view, int start, int end) {
    if (start >= end) {
      throw new IllegalArgumentException("empty work item [" + start + ", " + end + ")");
    }
    int[] ids = new int[end - start];
    Arrays.setAll(ids, i -> start + i);
    return new ItemPlan(device, view, ids);
  }

  /** The stream index of the item's first event: with the epoch, it names the item's streams. */
  public int start() {
    return events[0];
  }

  /** Number of events. */
  public int size() {
    return events.length;
  }
}
