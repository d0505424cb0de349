package dev.depbloom.schedule;

/**
 * The {@code schedule} section of a run's config: how training is spread over {@link #devices()}
 * logical devices (docs/schedules.md, "The {@code schedule} section"). Its semantics depend only on
 * these values, never on how many workers run them. Each schedule family has its config record in
 * its folder ({@code schedule.sequential.SequentialConfig}, {@code schedule.disttgl.DistTglConfig},
 * {@code schedule.depbloom.DepBloomConfig}), read and written by its {@link ScheduleFamily} through
 * {@link ScheduleSection}.
 */
public interface ScheduleConfig {
  /**
   * The schedule's family name in configs: {@code sequential}, {@code disttgl}, {@code depbloom}.
   */
  String label();

  /** DistTGL's i: batches per round per memory group (1 for the other schedules). */
  default int minibatchParallelism() {
    return 1;
  }

  /** DistTGL's j: copies training each batch at once (1 for the other schedules). */
  default int epochParallelism() {
    return 1;
  }

  /** Memory groups: DistTGL's k, or DepBloom's M (1 for sequential). */
  default int memoryParallelism() {
    return 1;
  }

  /**
   * Logical devices G: {@code i * k} by default ({@code i * j * k} for DistTGL; DepBloom: {@code M
   * * P}, or {@code M * P * k} spread).
   */
  default int devices() {
    return minibatchParallelism() * memoryParallelism();
  }

  /** Whether the learning rate is multiplied by G, as DistTGL does (linear scaling). */
  boolean scaleLearningRate();

  /**
   * Separate memory copies the schedule trains with: one per memory group (DistTGL's k), and per
   * chain in DepBloom's.
   */
  default int memoryViews() {
    return memoryParallelism();
  }

  /**
   * The memory view validation continues: the one that saw the latest training events at an epoch's
   * end. View 0 in every family: DistTGL's and DepBloom's memory group 0 ends each epoch on the
   * latest events ({@link MemoryGroupStagger}), and DepBloom's chains merge into every view of the
   * group at each window's end. A property of the config, so that a served run reads it without
   * building the schedule.
   */
  default int validationView() {
    return 0;
  }

  /** This schedule with the learning rate scaled by G or not ({@code schedule.scale_lr}). */
  ScheduleConfig withScaleLearningRate(boolean on);

  /** The learning rate the optimizer uses: {@code lr * G} when scaled. */
  default double learningRate(double configured) {
    return scaleLearningRate() ? configured * devices() : configured;
  }

  /** Whether parameters are still to be chosen ({@link ScheduleFamily#resolve}) before a run. */
  default boolean needsResolution() {
    return false;
  }
}
