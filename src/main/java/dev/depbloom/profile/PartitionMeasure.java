package dev.depbloom.profile;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.partition.WindowPartition;
import java.util.Arrays;

/**
 * How one partitioner does at one window size and chain count over a range of events: the range is
 * cut into windows of {@code window} events (aligned to multiples of the size, as {@link BatchPlan}
 * cuts batches), each window partitioned independently, and the counts summed over windows.
 *
 * @param window events per window W
 * @param partitioner the partitioner's name
 * @param chains sub-chains P
 * @param windows windows measured (the last may be shorter)
 * @param events events measured
 * @param crossChainEvents events whose endpoints have different owners
 * @param largestChainEvents the largest chain's events, summed over windows
 * @param ownedRows lost dependencies under {@link ReadRule#OWNED_ROWS}
 * @param ownWrites lost dependencies under {@link ReadRule#OWN_WRITES}
 * @param microBatches micro-batches k of the candidate the batched counts are of
 * @param batched dependencies lost once the chains train in large batches of {@code k B} ({@link
 *     BatchedReads}), without refinement
 * @param refined the same with intra-batch refinement
 * @param mergeTies rows the window-end merges decide at equal times
 */
public record PartitionMeasure(
    int window,
    String partitioner,
    int chains,
    int windows,
    long events,
    long crossChainEvents,
    long largestChainEvents,
    LostDependencies ownedRows,
    LostDependencies ownWrites,
    int microBatches,
    ByRule batched,
    ByRule refined,
    MergeTies mergeTies) {

  /** Lost dependencies under each read rule. */
  public record ByRule(LostDependencies ownedRows, LostDependencies ownWrites) {
    static final ByRule NONE = new ByRule(LostDependencies.NONE, LostDependencies.NONE);

    /** Under {@code rule}. */
    public LostDependencies of(ReadRule rule) {
      return rule == ReadRule.OWNED_ROWS ? ownedRows : ownWrites;
    }

    ByRule plus(ByRule o) {
      return new ByRule(ownedRows.plus(o.ownedRows), ownWrites.plus(o.ownWrites));
    }
  }

  /**
   * Partitions every window of {@code [from, to)} and sums the counts; the batched counts are those
   * of {@code k} micro-batches of {@code B} per large batch.
   */
  public static PartitionMeasure measure(
      EventStream events,
      int from,
      int to,
      int window,
      Partitioner partitioner,
      int chains,
      int batchSize,
      int microBatches) {
    int[][] sequential = BatchedReads.sequentialVersions(events, from, to, batchSize);
    int[] snapshot = new int[events.nodeCount()];
    Arrays.fill(snapshot, -1);
    ByRule batched = ByRule.NONE;
    ByRule refined = ByRule.NONE;
    long cross = 0;
    long largest = 0;
    int windows = 0;
    LostDependencies owned = LostDependencies.NONE;
    LostDependencies own = LostDependencies.NONE;
    MergeTies ties = MergeTies.NONE;
    int[] previousTouch = new int[events.nodeCount()];
    Arrays.fill(previousTouch, -1);
    for (int[] w : BatchPlan.bounds(from, to, window)) {
      WindowPartition p = partitioner.partition(events, w[0], w[1], chains);
      windows++;
      cross += p.crossChainEvents();
      largest += p.largestChainEvents();
      owned = owned.plus(LostDependencies.of(events, p, ReadRule.OWNED_ROWS));
      own = own.plus(LostDependencies.of(events, p, ReadRule.OWN_WRITES));
      ties = ties.plus(MergeTies.of(events, p, previousTouch));
      int[] before = snapshot.clone();
      ByRule[] windowCounts = new ByRule[2];
      for (int r = 0; r < 2; r++) {
        boolean refine = r == 1;
        LostDependencies[] byRule = new LostDependencies[2];
        for (ReadRule rule : ReadRule.values()) {
          int[] s = before.clone();
          byRule[rule.ordinal()] =
              BatchedReads.of(
                  events, p, microBatches, batchSize, refine, rule, sequential, from, s);
          snapshot = s;
        }
        windowCounts[r] = new ByRule(byRule[0], byRule[1]);
      }
      batched = batched.plus(windowCounts[0]);
      refined = refined.plus(windowCounts[1]);
    }
    return new PartitionMeasure(
        window,
        partitioner.name(),
        chains,
        windows,
        to - from,
        cross,
        largest,
        owned,
        own,
        microBatches,
        batched,
        refined,
        ties);
  }

  /** Share of events whose endpoints have different owners (the paper's cross-chain ratio). */
  public double crossChainShare() {
    return events == 0 ? 0 : (double) crossChainEvents / events;
  }

  /**
   * The largest chain's events over the mean chain's, summed over windows: how much longer the
   * windows take than with perfectly balanced chains (1 is perfect).
   */
  public double balance() {
    return events == 0 ? 1 : (double) largestChainEvents * chains / events;
  }

  /** Lost dependencies under a read rule. */
  public LostDependencies lost(ReadRule rule) {
    return rule == ReadRule.OWNED_ROWS ? ownedRows : ownWrites;
  }
}
