package dev.depbloom.schedule;

import dev.depbloom.model.config.ScheduleConfig;

/** Builds the schedule a config names; the one place a schedule's kind is looked at. */
public final class Schedules {
  private Schedules() {}

  /** The schedule over the first {@code trainEvents} events with batch size {@code batchSize}. */
  public static Schedule of(ScheduleConfig config, int trainEvents, int batchSize) {
    return switch (config.kind()) {
      case SEQUENTIAL -> new SequentialSchedule(trainEvents, batchSize);
      case DISTTGL ->
          new DistTglSchedule(
              trainEvents, batchSize, config.minibatchParallelism(), config.memoryParallelism());
    };
  }
}
