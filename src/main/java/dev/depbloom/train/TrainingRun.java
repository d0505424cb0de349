package dev.depbloom.train;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.step.SessionSpec;
import dev.depbloom.tensor.ThreadBudget;

/**
 * Everything a run is, resolved and validated before any output is written. Training sees times
 * relative to the first event ({@link EventStream#relativeToFirstEvent()}), as TGL and the
 * reference do.
 *
 * @param events the event stream (with any stand-in edge features already attached)
 * @param dataSource where the events came from, as the user named it (for provenance)
 * @param split chronological train / validation / test split
 * @param config the model and the schedule
 * @param seed the one seed every random stream derives from
 * @param threads tensor-engine thread budget
 * @param samplerThreads Java threads for neighbor sampling
 */
public record TrainingRun(
    EventStream events,
    String dataSource,
    Split split,
    RunConfig config,
    long seed,
    ThreadBudget threads,
    int samplerThreads) {
  public TrainingRun {
    events = events.relativeToFirstEvent();
  }

  public ModelConfig model() {
    return config.model();
  }

  public ScheduleConfig schedule() {
    return config.schedule();
  }

  /** What this run's training session is built from. */
  public SessionSpec session() {
    return new SessionSpec(
        events,
        split,
        config.model(),
        seed,
        threads,
        samplerThreads,
        config.schedule().memoryViews(),
        config.schedule().learningRate(config.model().train().learningRate()));
  }
}
