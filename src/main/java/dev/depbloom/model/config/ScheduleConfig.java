package dev.depbloom.model.config;

import java.util.Locale;

/**
 * The {@code schedule} section: how training is spread over {@code devices} logical devices
 * (DESIGN.md section 3). Its semantics depend only on these values, never on how many workers run
 * them.
 *
 * <ul>
 *   <li>{@code sequential}: one device, TGL's semantics.
 *   <li>{@code disttgl}: DistTGL's parallelism (amazon-science/disttgl {@code train.py}): {@code
 *       minibatch_parallelism} i consecutive batches per round read their memory group's memory as
 *       of the previous round; {@code memory_parallelism} k groups keep their own memory copies and
 *       walk the training events from staggered starts. {@code devices = i * k}.
 * </ul>
 *
 * @param kind which schedule
 * @param devices logical devices G
 * @param minibatchParallelism DistTGL's i (1 for sequential)
 * @param memoryParallelism DistTGL's k (1 for sequential)
 * @param scaleLearningRate multiply the learning rate by G, as DistTGL does (linear scaling)
 */
public record ScheduleConfig(
    Kind kind,
    int devices,
    int minibatchParallelism,
    int memoryParallelism,
    boolean scaleLearningRate) {

  /** The schedules this build runs. */
  public enum Kind {
    SEQUENTIAL,
    DISTTGL;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One device, TGL's semantics. */
  public static final ScheduleConfig SEQUENTIAL =
      new ScheduleConfig(Kind.SEQUENTIAL, 1, 1, 1, true);

  /** The learning rate the optimizer uses: {@code lr * G} when scaled. */
  public double learningRate(double configured) {
    return scaleLearningRate ? configured * devices : configured;
  }

  static ScheduleConfig read(SectionReader r) {
    Kind kind = r.choice("name", Kind.class, Kind.SEQUENTIAL);
    boolean hasDevices = r.has("devices");
    boolean hasI = r.has("minibatch_parallelism");
    int devices = r.positiveInt("devices", 1);
    int k = r.positiveInt("memory_parallelism", 1);
    int i = r.positiveInt("minibatch_parallelism", 1);
    boolean scale = r.bool("scale_lr", true);
    r.finish();
    if (kind == Kind.SEQUENTIAL) {
      if (devices != 1 || i != 1 || k != 1) {
        throw r.error(
            devices != 1 ? "devices" : i != 1 ? "minibatch_parallelism" : "memory_parallelism",
            "the sequential schedule runs on one logical device; use --schedule disttgl for more");
      }
      return new ScheduleConfig(kind, 1, 1, 1, scale);
    }
    if (!hasI) {
      if (devices % k != 0) {
        throw r.error(
            "devices",
            devices
                + " logical devices cannot be split into memory_parallelism "
                + k
                + " groups of equal size");
      }
      i = devices / k;
    } else if (!hasDevices) {
      devices = i * k;
    } else if (i * k != devices) {
      throw r.error(
          "devices",
          "disttgl runs minibatch_parallelism x memory_parallelism = "
              + i
              + " x "
              + k
              + " = "
              + i * k
              + " devices, not "
              + devices);
    }
    return new ScheduleConfig(kind, devices, i, k, scale);
  }
}
