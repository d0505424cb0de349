package dev.depbloom.schedule.sequential;

import dev.depbloom.schedule.ScheduleConfig;

/** TGL's training on one logical device. */
public record SequentialConfig(boolean scaleLearningRate) implements ScheduleConfig {
  /** One device, the learning rate scaled (by one): the default schedule. */
  public static final SequentialConfig DEFAULT = new SequentialConfig(true);

  @Override
  public String label() {
    return SequentialFamily.NAME;
  }

  @Override
  public SequentialConfig withScaleLearningRate(boolean on) {
    return new SequentialConfig(on);
  }
}
