package dev.depbloom.train;

import dev.depbloom.batch.Batch;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.model.config.SamplingConfig;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.tensor.WorkerPool;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scores the events of a batch against many negatives each (the test pass): the batch's events are
 * cut into slices, each slice is one forward pass over its positives and all their negatives, and
 * the passes run in parallel on the workers. Memory is read-only while they run; afterwards the
 * batch writes memory once through the replay path ({@link DeviceStep#replay}: the write depends
 * only on the true endpoints, so it equals the write of one scoring pass).
 *
 * <p>Every root is sampled under the key of its position in the whole batch ({@link
 * BatchPlanner#plan(Batch, long, NeighborSampler, int[])}), so the scores are those of one pass
 * over the whole batch whatever the slicing and the number of workers: a uniform sampler gives the
 * negatives of TGAT and DySAT the same neighborhoods either way. Slicing by events rather than by
 * negatives computes every positive endpoint's memory and embedding once per batch, not once per
 * group of negatives.
 *
 * <p>A pass holds at most about {@link #POSITIONS_PER_PASS} positions of the level table (roots and
 * their sampled neighbors over all snapshots), which bounds its memory: about 2,700 roots for
 * TGAT's 10 + 10 neighbors, 27,000 for TGN's 10. Planning (sampling) runs on whichever worker takes
 * the next slice, one at a time, since samplers are not reentrant.
 */
public final class EventSliceScorer implements AutoCloseable {
  /** Level-table positions one pass may hold. */
  static final int POSITIONS_PER_PASS = 300_000;

  private final DeviceStep step;
  private final BatchPlanner planner;
  private final int workers;
  private final WorkerPool pool; // workers - 1 helper threads, or null for one worker
  private final int positionsPerRoot;
  private final Object planLock = new Object();
  private int eventsPerPass; // 0: sized by POSITIONS_PER_PASS

  public EventSliceScorer(DeviceStep step, BatchPlanner planner, ModelConfig config, int workers) {
    this.step = step;
    this.planner = planner;
    this.workers = workers;
    this.pool = workers > 1 ? new WorkerPool("depbloom-scorer", workers - 1) : null;
    this.positionsPerRoot = positionsPerRoot(config.sampling());
  }

  /**
   * Fixes the events per pass (0: sized by {@link #POSITIONS_PER_PASS} and the workers). Results do
   * not depend on it; tests use it to check so.
   */
  public void eventsPerPass(int events) {
    if (events < 0) {
      throw new IllegalArgumentException("events per pass must not be negative: " + events);
    }
    this.eventsPerPass = events;
  }

  /**
   * Scores {@code batch} (roots {@code [src | dst | neg_1 .. neg_k]}) reading memory view {@code
   * view} ({@code memory} null for memory-less models); then, if {@code write}, writes the batch's
   * memory into that view. {@code stream} keys the batch's neighbor samples.
   */
  public BatchScores score(
      Batch batch,
      long stream,
      NeighborSampler sampler,
      MemoryStore memory,
      int view,
      boolean write) {
    int b = batch.size();
    int k = batch.negativesPerEvent();
    int perPass = sliceSize(b, k);
    int passes = (b + perPass - 1) / perPass;
    float[] positive = new float[b];
    float[] negative = new float[k * b];
    AtomicInteger next = new AtomicInteger();
    Runnable worker =
        () -> {
          for (int p = next.getAndIncrement(); p < passes; p = next.getAndIncrement()) {
            int from = p * perPass;
            int to = Math.min(b, from + perPass);
            Batch part = batch.slice(from, to);
            BatchGraph graph;
            synchronized (planLock) {
              graph = planner.plan(part, stream, sampler, keysInWholeBatch(b, k + 2, from, to));
            }
            BatchScores s = step.evaluate(graph, memory, view, batch.index(), false);
            int n = to - from;
            System.arraycopy(s.positive(), 0, positive, from, n);
            for (int j = 0; j < k; j++) {
              System.arraycopy(s.negative(), j * n, negative, j * b + from, n);
            }
          }
        };
    if (pool == null || passes == 1) {
      worker.run();
    } else {
      pool.runAll(
              Math.min(workers, passes),
              w -> {
                worker.run();
                return null;
              })
          .orThrow();
    }
    if (write && memory != null) {
      Batch endpoints = endpoints(batch);
      step.replay(planner.planWrite(endpoints, stream, sampler), memory, view);
    }
    return new BatchScores(positive, negative);
  }

  /** Events per pass: the fixed size, or what fits the budget, split so every worker has work. */
  private int sliceSize(int b, int negatives) {
    if (eventsPerPass > 0) {
      return Math.min(b, eventsPerPass);
    }
    long positionsPerEvent = (long) (2 + negatives) * positionsPerRoot;
    int fit = (int) Math.max(1, Math.min(b, POSITIONS_PER_PASS / positionsPerEvent));
    int passes = (b + fit - 1) / fit;
    passes = Math.min(b, ((passes + workers - 1) / workers) * workers); // a multiple of workers
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
  private static Batch endpoints(Batch batch) {
    int r = 2 * batch.size();
    return new Batch(
        batch.index(),
        batch.events(),
        Arrays.copyOf(batch.roots(), r),
        Arrays.copyOf(batch.rootTimes(), r));
  }

  /** Level-table positions per root: the root and its samples in every layer and snapshot. */
  private static int positionsPerRoot(SamplingConfig sampling) {
    long perSnapshot = 1;
    long layer = 1;
    for (int fanout : sampling.enabled() ? sampling.neighbors() : java.util.List.<Integer>of()) {
      layer *= fanout;
      perSnapshot += layer;
    }
    return (int) Math.min(Integer.MAX_VALUE, perSnapshot * sampling.history());
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }
}
