package dev.depbloom.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One logical device's work item in a round: events (stream indices, increasing) read from and
 * written to memory view {@code view}. For {@code sequential} and {@code disttgl} the events are a
 * consecutive range; for a DepBloom sub-chain they are the chain's events. With {@code microBatch}
 * smaller than the item, the item is a large batch of micro-batches of that many events (the last
 * may be shorter) trained on the one device: one memory update and write per micro-batch, in order,
 * then one training pass over all (DepBloom's local placement, {@code step.DeviceStep.Task}).
 *
 * @param microBatch events per micro-batch; {@code events.length} for an item of one batch
 */
public record ItemPlan(int device, int view, int[] events, int microBatch) {
  public ItemPlan {
    if (events.length == 0) {
      throw new IllegalArgumentException("empty work item of device " + device);
    }
    if (microBatch < 1) {
      throw new IllegalArgumentException("micro-batches of " + microBatch + " events");
    }
  }

  /** An item of one batch. */
  public ItemPlan(int device, int view, int[] events) {
    this(device, view, events, events.length);
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

  /** Whether the item is a large batch of several micro-batches trained on its device. */
  public boolean largeBatch() {
    return microBatch < events.length;
  }

  /** The events of each micro-batch, in order (the item's events when it is one batch). */
  public List<int[]> microBatches() {
    List<int[]> out = new ArrayList<>();
    for (int lo = 0; lo < events.length; lo += microBatch) {
      out.add(Arrays.copyOfRange(events, lo, Math.min(events.length, lo + microBatch)));
    }
    return out;
  }
}
