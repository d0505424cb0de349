package dev.depbloom.schedule;

import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.StageClock;
import java.util.List;

/**
 * A round as the coordinator planned it (drew its negatives and sampled its neighborhoods): this
 * process's tasks in device order (an item, or one shard of it, each), a stage clock per task (what
 * the task measures of itself as it runs), and how long each item's planning took (on the task of
 * its last shard).
 */
public record PlannedRound(
    RoundPlan round,
    int epoch,
    List<DeviceStep.Task> tasks,
    List<StageClock> clocks,
    List<Long> sampleNanos) {

  /** Marks, per node, the rows of view {@code view} that this round's tasks read. */
  public void markReads(int view, boolean[] marks) {
    for (DeviceStep.Task t : tasks) {
      if (t.view() == view && t.graph().reads() != null) {
        for (int node : t.graph().reads().distinctNodes()) {
          marks[node] = true;
        }
      }
    }
  }
}
