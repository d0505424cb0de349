package dev.depbloom.schedule.disttgl;

import dev.depbloom.schedule.ScheduleConfig;

/**
 * DistTGL's parallelism (amazon-science/disttgl {@code train.py}): mini-batch parallelism {@code i}
 * and epoch parallelism {@code j} inside each of {@code k} memory groups, {@code G = i * j * k}
 * ({@link DistTglSchedule}).
 *
 * @param minibatchParallelism DistTGL's i
 * @param epochParallelism DistTGL's j
 * @param memoryParallelism DistTGL's k
 * @param scaleLearningRate whether the learning rate is multiplied by G
 */
public record DistTglConfig(
    int minibatchParallelism,
    int epochParallelism,
    int memoryParallelism,
    boolean scaleLearningRate)
    implements ScheduleConfig {

  /** {@code i} batches per round in each of {@code k} memory groups, no epoch parallelism. */
  public static DistTglConfig of(int i, int k, boolean scaleLearningRate) {
    return new DistTglConfig(i, 1, k, scaleLearningRate);
  }

  /** {@code i} batches per round, each trained by {@code j} copies, in {@code k} memory groups. */
  public static DistTglConfig of(int i, int j, int k, boolean scaleLearningRate) {
    return new DistTglConfig(i, j, k, scaleLearningRate);
  }

  @Override
  public DistTglConfig withScaleLearningRate(boolean on) {
    return new DistTglConfig(minibatchParallelism, epochParallelism, memoryParallelism, on);
  }

  @Override
  public int devices() {
    return minibatchParallelism * epochParallelism * memoryParallelism;
  }

  @Override
  public String label() {
    return DistTglFamily.NAME;
  }
}
