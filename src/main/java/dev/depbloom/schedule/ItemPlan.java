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
 * <p>With DistTGL's epoch parallelism {@code j}, {@code j} items train the same events at once,
 * copies {@code 0..j-1}: each draws its own negatives and neighbours (as another epoch would), all
 * read the same memory, and only copy 0 writes memory.
 *
 * @param microBatch events per micro-batch; {@code events.length} for an item of one batch
 * @param copy the item's epoch-parallel copy (0: the one that writes memory)
 */
public record ItemPlan(int device, int view, int[] events, int microBatch, int copy) {
  public ItemPlan {
    if (events.length == 0) {
      throw new IllegalArgumentException("empty work item of device " + device);
    }
    if (microBatch < 1 || copy < 0) {
      throw new IllegalArgumentException(
          "micro-batches of " + microBatch + " events, copy " + copy);
    }
  }

  /** An item of one batch. */
  public ItemPlan(int device, int view, int[] events) {
    this(device, view, events, events.length);
  }

  /** An item that writes memory (copy 0). */
  public ItemPlan(int device, int view, int[] events, int microBatch) {
    this(device, view, events, microBatch, 0);
  }

  /** The same events on another device as epoch-parallel copy {@code copy}. */
  public ItemPlan asCopy(int onDevice, int copy) {
    return new ItemPlan(onDevice, view, events, microBatch, copy);
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
