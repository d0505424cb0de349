package dev.depbloom.schedule.halves;

import dev.depbloom.schedule.ScheduleConfig;

/**
 * The test family's config: TGL's training on one device in rounds of {@code ceil(B / divisor)}
 * events.
 *
 * @param divisor {@code schedule.divisor}: how many rounds one batch of the config becomes
 * @param scaleLearningRate whether the learning rate is multiplied by G (here 1)
 */
public record HalvesConfig(int divisor, boolean scaleLearningRate) implements ScheduleConfig {
  @Override
  public String label() {
    return HalvesFamily.NAME;
  }

  @Override
  public HalvesConfig withScaleLearningRate(boolean on) {
    return new HalvesConfig(divisor, on);
  }
}
