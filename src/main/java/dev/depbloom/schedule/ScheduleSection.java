package dev.depbloom.schedule;

import dev.depbloom.model.config.SectionReader;
import java.util.Locale;

/**
 * Reads and writes the {@code schedule} section of a config file ({@link ScheduleConfig}): the
 * family's name and the keys every family shares here, the family's own keys by its {@link
 * ScheduleFamily}; every value checked as it is read, an unknown key an error naming it (and the
 * family it belongs to, if another's), and {@code config.yml} written with every key explicit so
 * that it reads back to the same record.
 */
public final class ScheduleSection {
  private ScheduleSection() {}

  /**
   * The keys every family's section has ({@link ScheduleConfig}'s parallelisms), as read; a family
   * checks the ones it does not use.
   *
   * @param devices {@code devices}, G (1 unset)
   * @param devicesGiven whether {@code devices} was set
   * @param minibatchParallelism {@code minibatch_parallelism}, DistTGL's i (1 unset)
   * @param minibatchParallelismGiven whether it was set
   * @param epochParallelism {@code epoch_parallelism}, DistTGL's j (1 unset)
   * @param memoryParallelism {@code memory_parallelism}, memory groups (1 unset)
   * @param scaleLearningRate {@code scale_lr} (true unset)
   */
  public record Common(
      int devices,
      boolean devicesGiven,
      int minibatchParallelism,
      boolean minibatchParallelismGiven,
      int epochParallelism,
      int memoryParallelism,
      boolean scaleLearningRate) {

    /** The first of the parallelism keys set above 1, or null when all are 1. */
    public String firstAboveOne() {
      return devices != 1
          ? "devices"
          : minibatchParallelism != 1
              ? "minibatch_parallelism"
              : epochParallelism != 1
                  ? "epoch_parallelism"
                  : memoryParallelism != 1 ? "memory_parallelism" : null;
    }
  }

  /** The schedule a {@code schedule} section describes. */
  public static ScheduleConfig read(SectionReader r) {
    String name = r.has("name") ? r.text("name").trim().toLowerCase(Locale.ROOT) : "sequential";
    ScheduleFamily<?> family = ScheduleFamilies.named(name);
    if (family == null) {
      throw r.error(
          "name", "expected one of " + ScheduleFamilies.names() + ", got '" + r.text("name") + "'");
    }
    Common common =
        new Common(
            r.positiveInt("devices", 1),
            r.has("devices"),
            r.positiveInt("minibatch_parallelism", 1),
            r.has("minibatch_parallelism"),
            r.positiveInt("epoch_parallelism", 1),
            r.positiveInt("memory_parallelism", 1),
            r.bool("scale_lr", true));
    ScheduleConfig config = family.read(r, common);
    for (String key : r.unread()) {
      for (String other : ScheduleFamilies.names()) {
        if (ScheduleFamilies.named(other).keys().contains(key)) {
          throw r.error(
              key,
              "a key of the "
                  + other
                  + " schedule, not of "
                  + name
                  + "; use --schedule "
                  + other
                  + " (or leave the key out)");
        }
      }
    }
    r.finish();
    return config;
  }

  /** Appends the section as {@code config.yml} writes it, every key explicit. */
  public static void write(ScheduleConfig d, StringBuilder y) {
    y.append("schedule:\n");
    y.append("  - name: ").append(d.label()).append('\n');
    y.append("    devices: ").append(d.devices()).append('\n');
    y.append("    minibatch_parallelism: ").append(d.minibatchParallelism()).append('\n');
    y.append("    epoch_parallelism: ").append(d.epochParallelism()).append('\n');
    y.append("    memory_parallelism: ").append(d.memoryParallelism()).append('\n');
    y.append("    scale_lr: ").append(d.scaleLearningRate()).append('\n');
    ScheduleFamilies.write(d, y);
  }
}
