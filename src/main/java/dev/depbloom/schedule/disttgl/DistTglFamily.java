package dev.depbloom.schedule.disttgl;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.SectionReader;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamily;
import dev.depbloom.schedule.ScheduleSection;
import java.util.Set;

/**
 * The {@code disttgl} family: its parallelisms are the section's common keys ({@code
 * minibatch_parallelism} i, {@code epoch_parallelism} j, {@code memory_parallelism} k); i unset is
 * {@code G / (j * k)}.
 */
public final class DistTglFamily implements ScheduleFamily<DistTglConfig> {
  /** Its {@code schedule.name}. */
  public static final String NAME = "disttgl";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<DistTglConfig> configType() {
    return DistTglConfig.class;
  }

  @Override
  public Set<String> keys() {
    return Set.of();
  }

  @Override
  public DistTglConfig read(SectionReader r, ScheduleSection.Common c) {
    int i = c.minibatchParallelism();
    int j = c.epochParallelism();
    int k = c.memoryParallelism();
    int devices = c.devices();
    if (!c.minibatchParallelismGiven()) {
      if (devices % (j * k) != 0) {
        throw r.error(
            "devices",
            devices
                + " logical devices cannot be split into memory_parallelism "
                + k
                + " groups"
                + (j > 1 ? " of epoch_parallelism " + j + " copies" : "")
                + " of equal size");
      }
      i = devices / (j * k);
    } else if (c.devicesGiven() && i * j * k != devices) {
      throw r.error(
          "devices",
          "disttgl runs minibatch_parallelism x "
              + (j > 1 ? "epoch_parallelism x " : "")
              + "memory_parallelism = "
              + i
              + " x "
              + (j > 1 ? j + " x " : "")
              + k
              + " = "
              + i * j * k
              + " devices, not "
              + devices);
    }
    return DistTglConfig.of(i, j, k, c.scaleLearningRate());
  }

  @Override
  public void write(DistTglConfig config, StringBuilder y) {}

  @Override
  public Schedule build(DistTglConfig c, EventStream events, Split split, int batchSize) {
    return new DistTglSchedule(
        split.trainEnd(),
        batchSize,
        c.minibatchParallelism(),
        c.epochParallelism(),
        c.memoryParallelism());
  }
}
