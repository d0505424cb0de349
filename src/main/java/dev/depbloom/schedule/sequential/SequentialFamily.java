package dev.depbloom.schedule.sequential;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.SectionReader;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamily;
import dev.depbloom.schedule.ScheduleSection;
import java.util.Set;

/** The {@code sequential} family: TGL's training on one device, no keys of its own. */
public final class SequentialFamily implements ScheduleFamily<SequentialConfig> {
  /** Its {@code schedule.name}, the default. */
  public static final String NAME = "sequential";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<SequentialConfig> configType() {
    return SequentialConfig.class;
  }

  @Override
  public Set<String> keys() {
    return Set.of();
  }

  @Override
  public SequentialConfig read(SectionReader r, ScheduleSection.Common common) {
    String key = common.firstAboveOne();
    if (key != null) {
      throw r.error(
          key,
          "the sequential schedule runs on one logical device; use --schedule disttgl or"
              + " depbloom for more");
    }
    return new SequentialConfig(common.scaleLearningRate());
  }

  @Override
  public void write(SequentialConfig config, StringBuilder y) {}

  @Override
  public Schedule build(SequentialConfig config, EventStream events, Split split, int batchSize) {
    return new SequentialSchedule(split.trainEnd(), batchSize);
  }
}
