package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.model.config.SamplingConfig;
import dev.depbloom.step.BatchScores;
import dev.depbloom.tensor.WorkerPool;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * How {@link EventSliceScorer} cuts a batch into passes over slices of its events: the slice size,
 * the roots' keys in the whole batch, and the copy of a slice's scores into the batch's arrays.
 */
final class BatchSlices {
  private BatchSlices() {}

  /** Copies the scores of the slice starting at event {@code from} into the batch's arrays. */
  static void copy(BatchScores s, int from, int b, int k, float[] positive, float[] negative) {
    int n = s.positive().length;
    System.arraycopy(s.positive(), 0, positive, from, n);
    for (int j = 0; j < k; j++) {
      System.arraycopy(s.negative(), j * n, negative, j * b + from, n);
    }
  }

  /**
   * Events per pass: {@code eventsPerPass} when positive, else what fits {@code positionsPerPass}
   * level-table positions, in a multiple of {@code parts} passes so that the workers share them
   * evenly.
   */
  static int sliceSize(
      int b,
      int negatives,
      int eventsPerPass,
      int positionsPerRoot,
      int positionsPerPass,
      int parts) {
    if (eventsPerPass > 0) {
      return Math.min(b, eventsPerPass);
    }
    long positionsPerEvent = (long) (2 + negatives) * positionsPerRoot;
    int fit = (int) Math.max(1, Math.min(b, positionsPerPass / positionsPerEvent));
    int passes = (b + fit - 1) / fit;
    passes = Math.min(b, ((passes + parts - 1) / parts) * parts); // a multiple of parts
    return (b + passes - 1) / passes;
  }

  /**
   * The position in the whole batch ({@code B} events, {@code blocks} roots per event) of every
   * root of {@link Batch#slice}{@code (from, to)}: root {@code j n + i} of the slice is root {@code
   * j B + from + i} of the batch.
   */
  static int[] keysInWholeBatch(int b, int blocks, int from, int to) {
    int n = to - from;
    int[] keys = new int[blocks * n];
    for (int j = 0; j < blocks; j++) {
      for (int i = 0; i < n; i++) {
        keys[j * n + i] = j * b + from + i;
      }
    }
    return keys;
  }

  /** The same events with their true endpoints only: what the memory write reads. */
  static Batch endpoints(Batch batch) {
    int r = 2 * batch.size();
    return new Batch(
        batch.index(),
        batch.events(),
        Arrays.copyOf(batch.roots(), r),
        Arrays.copyOf(batch.rootTimes(), r));
  }

  /** Level-table positions per root: the root and its samples in every layer and snapshot. */
  static int positionsPerRoot(SamplingConfig sampling) {
    long perSnapshot = 1;
    long layer = 1;
    for (int fanout : sampling.enabled() ? sampling.neighbors() : List.<Integer>of()) {
      layer *= fanout;
      perSnapshot += layer;
    }
    return (int) Math.min(Integer.MAX_VALUE, perSnapshot * sampling.history());
  }

  /**
   * Runs passes {@code 0..passes-1} on {@code workers} workers (this thread and {@code pool}'s, or
   * this thread alone when {@code pool} is null), each taking the next pass not yet taken.
   */
  static void runPasses(WorkerPool pool, int workers, int passes, IntConsumer pass) {
    AtomicInteger next = new AtomicInteger();
    Runnable worker =
        () -> {
          for (int p = next.getAndIncrement(); p < passes; p = next.getAndIncrement()) {
            pass.accept(p);
          }
        };
    if (pool == null || passes == 1) {
      worker.run();
      return;
    }
    pool.runAll(
            Math.min(workers, passes),
            w -> {
              worker.run();
              return null;
            })
        .orThrow();
  }
}
