package dev.depbloom.observe;

import dev.depbloom.tensor.KernelLog;
import java.util.List;

/**
 * The work one training round recorded (docs/projection.md, "Two inputs, kept apart"), independent
 * of any device: per logical device's item its kernels by stage and its memory traffic, and the
 * round-end work. A GPU projection prices it on a device model under a schedule's memory placement.
 * The byte counts are always there; the kernel logs only when the round recorded its kernels (a
 * listener of the round asked for them: {@code recording.RoundCostRecorder}'s {@code
 * recordKernelsUpToEpoch}), else they are empty.
 *
 * @param round the round's index in its epoch
 * @param events the round's events
 * @param items one per busy logical device, in device order
 * @param optimizer the optimizer step's kernels (one replica; every device runs the same)
 * @param gradientBytes bytes of one gradient, all-reduced once per round over the devices
 * @param commits per memory view written this round: what its commit does on the critical path
 * @param merges per group of views merged after the round (DepBloom's window ends)
 * @param prefills per memory group, the window-start prefill before the round's items
 */
public record RoundWork(
    int round,
    int events,
    List<ItemWork> items,
    KernelLog optimizer,
    long gradientBytes,
    List<ViewCommit> commits,
    List<GroupMerge> merges,
    List<GroupPrefill> prefills) {

  /** A round of which nothing but its size is known. */
  public static RoundWork none(int round, int events) {
    return new RoundWork(
        round, events, List.of(), new KernelLog(), 0, List.of(), List.of(), List.of());
  }

  public RoundWork {
    items = List.copyOf(items);
    commits = List.copyOf(commits);
    merges = List.copyOf(merges);
    prefills = List.copyOf(prefills);
  }

  /**
   * One logical device's item (one task: with more workers than devices an item's shards are
   * separate tasks). The fetch stage's kernels gather its memory and mailbox rows from the view;
   * {@code memoryReadBytes} are those rows, which a host-resident memory (DistTGL) serves instead
   * through its daemon and a host-to-device copy. {@code inputBytes} are the rest of its inputs
   * built on the host (index tensors, time deltas, features), which every placement copies in.
   *
   * @param device the logical device
   * @param view the memory view it reads and writes
   * @param microBatch its place among the refined micro-batches of its chain, or -1
   * @param sampleNanos its sampling on the host, as measured here
   * @param fetch kernels gathering the item's inputs
   * @param memoryUpdate kernels of the memory updater (forward)
   * @param refine kernels of the refinement overlay (refined micro-batches)
   * @param train kernels of embedding, prediction, loss and backward
   * @param memoryWrite kernels building the item's memory write
   * @param memoryReadBytes bytes of the memory and mailbox rows the item reads (distinct nodes)
   * @param inputBytes bytes of its other inputs, built on the host (each distinct edge's features
   *     once)
   * @param repeatedEdgeFeatureBytes what gathering edge features once per sampled edge adds to
   *     {@code inputBytes} (DistTGL's {@code prepare_input})
   * @param writeBytes bytes of the memory rows and mails the item writes, with ids and times
   */
  public record ItemWork(
      int device,
      int view,
      int microBatch,
      long sampleNanos,
      KernelLog fetch,
      KernelLog memoryUpdate,
      KernelLog refine,
      KernelLog train,
      KernelLog memoryWrite,
      long memoryReadBytes,
      long inputBytes,
      long repeatedEdgeFeatureBytes,
      long writeBytes) {}

  /**
   * One memory view's commit of the round's writes.
   *
   * @param view the view
   * @param kernels the kernels that apply the rows committed on the critical path
   * @param criticalBytes bytes of those rows (all rows, or with hot/cold commits the hot ones)
   * @param deferredBytes bytes committed off the critical path (cold rows)
   */
  public record ViewCommit(int view, KernelLog kernels, long criticalBytes, long deferredBytes) {}

  /**
   * A window-end merge of a group of views: each view copies in, from each other view, the memory
   * rows and the mailboxes that view won (two copies per other view).
   *
   * @param views the group's views
   * @param receivedBytes per view of the group (in its order), the rows it received from the others
   */
  public record GroupMerge(List<Integer> views, long[] receivedBytes) {}

  /**
   * A memory group's window-start prefill: a serial replay over its views.
   *
   * @param views the group's views, in handoff order
   * @param kernels the replay's kernels, all views one after another
   * @param handoffBytes the rows each view handed on to the next, summed
   * @param handoffs how many handoffs
   */
  public record GroupPrefill(
      List<Integer> views, KernelLog kernels, long handoffBytes, int handoffs) {}
}
