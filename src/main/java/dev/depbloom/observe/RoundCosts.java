package dev.depbloom.observe;

import java.util.List;

/**
 * What one training round cost, as measured on this machine's workers: per task (a logical device's
 * item, or a shard of it) its stages in nanoseconds, and the coordinator's round-end work. The raw
 * material of a projection to real devices.
 *
 * @param round the round's index in its epoch
 * @param events the round's events
 * @param tasks per task, in device order
 * @param allReduceNanos summing the round's gradients
 * @param optimizerNanos the optimizer step
 * @param commitNanos the round's commit on the critical path (for hot/cold commits: the hot part)
 * @param mergeNanos the window-end merge of memory views (0 when the round does not merge)
 * @param writeBytes bytes of the memory rows and mails (with ids and times) the round committed on
 *     the critical path: all of them, or with hot/cold commits the hot ones
 * @param slowestViewCommitNanos the largest share of {@code commitNanos} one memory view took (on
 *     real devices every view commits on its own device, all in parallel)
 * @param slowestViewMergeNanos the same for the merge: the copies into one view, with the choice of
 *     the winning rows, which every view makes alike
 * @param mergeBytes bytes of the rows the merge copied into the view that received most: what
 *     crosses the link to that view's device
 * @param prefill the window-start prefills run before the round's items (none: {@link
 *     Prefill#NONE})
 * @param work what the round did, device-independently: a GPU projection's input
 */
public record RoundCosts(
    int round,
    int events,
    List<TaskCost> tasks,
    long allReduceNanos,
    long optimizerNanos,
    long commitNanos,
    long mergeNanos,
    long writeBytes,
    long slowestViewCommitNanos,
    long slowestViewMergeNanos,
    long mergeBytes,
    Prefill prefill,
    RoundWork work) {

  /**
   * The prefills of a round (a DepBloom window start, {@code RoundPlan.Prefill}), each a serial
   * chain over one memory group's views before the round's items start.
   *
   * @param totalNanos all of them, one after another as this process ran them
   * @param slowestNanos the one that took longest (memory groups prefill on their own devices, in
   *     parallel)
   * @param slowestBytes the rows that one handed from each view to the next, summed: on real
   *     devices each handoff crosses the link
   * @param slowestHandoffs the number of those handoffs
   */
  public record Prefill(
      long totalNanos, long slowestNanos, long slowestBytes, int slowestHandoffs) {
    public static final Prefill NONE = new Prefill(0, 0, 0, 0);

    /** These prefills and one more, which took {@code nanos} and handed {@code bytes} over. */
    public Prefill plus(long nanos, long bytes, int handoffs) {
      return nanos > slowestNanos
          ? new Prefill(totalNanos + nanos, nanos, bytes, handoffs)
          : new Prefill(totalNanos + nanos, slowestNanos, slowestBytes, slowestHandoffs);
    }
  }

  /**
   * One task's stages. {@code refineWaitNanos} is the time a refined micro-batch waited for the
   * earlier micro-batches of its large batch; {@code refineNanos} the overlay it then built.
   *
   * @param chain the memory view (DepBloom's sub-chain) the task belongs to
   * @param microBatch its index among the refined micro-batches of its chain (-1: not refined)
   */
  public record TaskCost(
      int device,
      int chain,
      int microBatch,
      long sampleNanos,
      long refineWaitNanos,
      long refineNanos,
      long fetchNanos,
      long memoryUpdateNanos,
      long memoryWriteNanos,
      long trainNanos) {}
}
