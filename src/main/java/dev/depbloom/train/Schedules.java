package dev.depbloom.train;

import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamilies;

/** The schedule of a run: its family's, at the batch size of its model config. */
public final class Schedules {
  private Schedules() {}

  /**
   * The run's schedule over its training events, at the batch size of its model config: the one
   * route by which the batch size reaches the rounds (docs/architecture.md). A config with unset
   * parameters must be resolved ({@link ScheduleFamilies#resolve}) first.
   */
  public static Schedule of(TrainingRun run) {
    return ScheduleFamilies.build(
        run.schedule(), run.events(), run.split(), run.model().train().batchSize());
  }
}
