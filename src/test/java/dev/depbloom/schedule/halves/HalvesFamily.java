package dev.depbloom.schedule.halves;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.SectionReader;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamily;
import dev.depbloom.schedule.ScheduleSection;
import java.util.Set;

/**
 * A trivial schedule family from the test tree, registered by one line of
 * src/test/resources/META-INF/services/dev.depbloom.schedule.ScheduleFamily: {@code halves} trains
 * on one device in rounds of {@code ceil(B / schedule.divisor)} events.
 */
public final class HalvesFamily implements ScheduleFamily<HalvesConfig> {
  static final String NAME = "halves";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<HalvesConfig> configType() {
    return HalvesConfig.class;
  }

  @Override
  public Set<String> keys() {
    return Set.of("divisor");
  }

  @Override
  public HalvesConfig read(SectionReader r, ScheduleSection.Common common) {
    String key = common.firstAboveOne();
    if (key != null) {
      throw r.error(key, "halves runs on one device");
    }
    return new HalvesConfig(r.positiveInt("divisor", 2), common.scaleLearningRate());
  }

  @Override
  public void write(HalvesConfig config, StringBuilder y) {
    y.append("    divisor: ").append(config.divisor()).append('\n');
  }

  @Override
  public Schedule build(HalvesConfig config, EventStream events, Split split, int batchSize) {
    int round = (batchSize + config.divisor() - 1) / config.divisor();
    return new HalvesSchedule(split.trainEnd(), round);
  }
}
