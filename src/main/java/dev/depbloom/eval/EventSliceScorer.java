package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.SharedReads;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.StreamParts;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.TemporalSample;
import dev.depbloom.step.BatchPlanner;
import dev.depbloom.step.BatchScores;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.MemoryWriteSink;
import dev.depbloom.step.ScoredMemory;
import dev.depbloom.step.ScoringStep;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.WorkerPool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.bytedeco.pytorch.Tensor;

/**
 * Scores the events of a batch against many negatives each (the test pass): the batch's events are
 * cut into slices, each slice is one forward pass over its positives and all their negatives, and
 * the passes run in parallel on the workers. Memory is read-only while they run; afterwards the
 * batch writes memory once ({@link ScoringStep#write}: the write depends only on the true
 * endpoints, so it equals the write of one scoring pass; their updated memory is among the slices',
 * so the write reuses it rather than updating them again).
 *
 * <p>Every root is sampled under the key of its position in the whole batch ({@link
 * BatchPlanner#plan(Batch, long, NeighborSampler, int[])}), so the scores are those of one pass
 * over the whole batch whatever the slicing and the number of workers: a uniform sampler gives the
 * negatives of TGAT and DySAT the same neighborhoods either way. Slicing by events rather than by
 * negatives computes every positive endpoint's memory and embedding once per batch, not once per
 * group of negatives.
 *
 * <p>For models with memory, all slices of a batch are planned first and their memory reads shared
 * ({@link SharedReads}): one memory update computes every (node, read time) the batch reads once,
 * where each slice would repeat the reads of the neighbors of the batch's negatives (a few nodes,
 * drawn again and again). Without memory, each worker plans the next slice itself, one at a time
 * (samplers are not reentrant), while the others compute.
 *
 * <p>Several memories (the test's two protocols) can be scored in one call: the slices, their
 * samples and the layers' edge and time projections ({@link dev.depbloom.nn.StreamParts}) depend
 * only on the stream, so they are computed once and each memory pays only for what reads it.
 *
 * <p>A pass holds at most about {@link #POSITIONS_PER_PASS} positions of the level table (roots and
 * their sampled neighbors over all snapshots), which bounds its memory.
 */
public final class EventSliceScorer implements AutoCloseable {
  /** Level-table positions one pass may hold. */
  static final int POSITIONS_PER_PASS = 60_000;

  /**
   * The passes of a batch, and the parts of its shared memory update, come in multiples of this (at
   * most one per event, or per 1,024 reads): enough to keep 1, 2 or 4 workers busy, and never
   * derived from the worker count, so the products have the same shapes, and the scores the same
   * float rounding, however many workers run them (one process of 2 workers scores as 2 ranks of
   * 1).
   */
  static final int PARTS = 4;

  /** Rows per part of a test batch's shared memory update, at least. */
  static final int SCORE_PART_ROWS = 1024;

  /** Rows per part of a replay batch's memory update, at least. */
  static final int REPLAY_PART_ROWS = 256;

  private final ScoringStep step;
  private final BatchPlanner planner;
  private final int workers;
  private final WorkerPool pool; // workers - 1 helper threads, or null for one worker
  private final int positionsPerRoot;
  private final Object planLock = new Object();
  private int eventsPerPass; // 0: sized by POSITIONS_PER_PASS
  private final long[] nanos =
      new long[ScorerPhase.values().length]; // wall time per phase, all calls

  public EventSliceScorer(DeviceStep step, BatchPlanner planner, ModelConfig config, int workers) {
    this.step = step.scoring();
    this.planner = planner;
    this.workers = workers;
    this.pool = workers > 1 ? new WorkerPool("depbloom-scorer", workers - 1) : null;
    this.positionsPerRoot = BatchSlices.positionsPerRoot(config.sampling());
  }

  /**
   * Fixes the events per pass (0: sized by {@link #POSITIONS_PER_PASS} and {@link #PARTS}). Results
   * do not depend on it; tests use it to check so.
   */
  public void eventsPerPass(int events) {
    if (events < 0) {
      throw new IllegalArgumentException("events per pass must not be negative: " + events);
    }
    this.eventsPerPass = events;
  }

  /**
   * Wall seconds spent in each phase of {@link #replay} and {@link #score} over all calls so far,
   * by key ({@code replay}, {@code plan}, {@code shareReads}, {@code memoryUpdate}, {@code score},
   * {@code memoryWrite}; models without memory plan and score in one phase, {@code score}, and have
   * no replay).
   */
  public Map<String, Double> phaseSeconds() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (ScorerPhase p : ScorerPhase.values()) {
      out.put(p.key, nanos[p.ordinal()] / 1e9);
    }
    return out;
  }

  /** Charges the time since {@code since} to {@code phase}; returns now. */
  private long charge(ScorerPhase phase, long since) {
    long now = System.nanoTime();
    nanos[phase.ordinal()] += now - since;
    return now;
  }

  /**
   * Scores {@code batch} (roots {@code [src | dst | neg_1 .. neg_k]}) reading memory view {@code
   * view} ({@link MemoryStore#none()} for memory-less models); then, if {@code write}, writes the
   * batch's memory into that view. {@code stream} keys the batch's neighbor samples.
   */
  public BatchScores score(
      Batch batch,
      long stream,
      NeighborSampler sampler,
      MemoryStore memory,
      int view,
      boolean write) {
    List<ScoredMemory> memories =
        memory.isNone() ? List.of() : List.of(new ScoredMemory(memory, view));
    return score(batch, stream, sampler, memories, write).get(0);
  }

  /**
   * Scores {@code batch} once per memory in {@code memories} (empty for memory-less models: one
   * result), then, if {@code write}, writes the batch's memory into each. The slices are planned,
   * and their memory reads gathered, once for all memories; each memory's scores and writes equal
   * those of a call with that memory alone.
   */
  public List<BatchScores> score(
      Batch batch,
      long stream,
      NeighborSampler sampler,
      List<ScoredMemory> memories,
      boolean write) {
    return score(batch, stream, sampler, memories, write ? MemoryWriteSink.APPLY : null);
  }

  /**
   * As {@link #score(Batch, long, NeighborSampler, List, boolean)}, the batch's write into each
   * memory handed to {@code writes} (null: nothing written) instead of applied: a served batch is
   * applied later, with its neighbor index, under the serving lock.
   */
  public List<BatchScores> score(
      Batch batch,
      long stream,
      NeighborSampler sampler,
      List<ScoredMemory> memories,
      MemoryWriteSink writes) {
    int b = batch.size();
    int k = batch.negativesPerEvent();
    int perPass = sliceSize(b, k);
    int passes = (b + perPass - 1) / perPass;
    IntFunction<BatchGraph> plan = p -> plan(batch, p, perPass, stream, sampler);
    long t = System.nanoTime();
    if (memories.isEmpty()) {
      return List.of(scoreWithoutMemory(batch, passes, perPass, plan, t));
    }
    int n = memories.size();
    float[][] positive = new float[n][b];
    float[][] negative = new float[n][k * b];
    // all slices are planned first, so that one memory update per memory serves all of them
    BatchGraph[] plans = new BatchGraph[passes];
    BatchSlices.runPasses(pool, workers, passes, p -> plans[p] = plan.apply(p));
    // the write reads the true endpoints, which the slices read too: it takes their update
    BatchGraph writePlan =
        writes != null ? planner.planWrite(BatchSlices.endpoints(batch), stream, sampler) : null;
    List<BatchGraph> all = new ArrayList<>(Arrays.asList(plans));
    if (writePlan != null) {
      all.add(writePlan);
    }
    t = charge(ScorerPhase.PLAN, t);
    SharedReads shared = SharedReads.of(all);
    t = charge(ScorerPhase.SHARE_READS, t);
    Tensor[] updated = new Tensor[n];
    StreamParts[] parts = new StreamParts[updateParts(shared, SCORE_PART_ROWS)];
    try {
      for (int i = 0; i < parts.length; i++) {
        parts[i] = n > 1 ? new StreamParts() : null;
      }
      for (int i = 0; i < n; i++) {
        ScoredMemory m = memories.get(i);
        updated[i] = sharedUpdate(shared, m.store(), m.view(), batch.index(), parts);
      }
      t = charge(ScorerPhase.MEMORY_UPDATE, t);
      BatchSlices.runPasses(
          pool,
          workers,
          passes,
          p -> {
            List<BatchScores> s = step.evaluate(plans[p], updated, shared.rows(p), memories);
            for (int i = 0; i < n; i++) {
              BatchSlices.copy(s.get(i), p * perPass, b, k, positive[i], negative[i]);
            }
          });
      t = charge(ScorerPhase.SCORE, t);
      if (writePlan != null) {
        writeAll(memories, writePlan, updated, shared.rows(passes), writes);
      }
      charge(ScorerPhase.MEMORY_WRITE, t);
    } finally {
      Arrays.stream(updated).forEach(Tensors::release);
      Arrays.stream(parts).filter(Objects::nonNull).forEach(StreamParts::close);
    }
    return IntStream.range(0, n)
        .mapToObj(i -> new BatchScores(positive[i], negative[i]))
        .collect(Collectors.toList());
  }

  /**
   * Writes {@code batch}'s memory into view {@code view} of {@code memory} without scoring (TGL's
   * replay of the training and validation events before the test), its memory update computed in
   * parts on all workers: a replay batch reads only its endpoints (about 1,200 reads at batch 600),
   * too few for the test's parts of at least {@link #SCORE_PART_ROWS} rows, and one worker alone
   * left the other idle (APAN's replay, its mail attention over every endpoint, was a quarter of
   * its test). The parts depend only on the read count, so the memory is the same however many
   * workers run them.
   */
  public void replay(
      Batch batch, long stream, NeighborSampler sampler, MemoryStore memory, int view) {
    replay(batch, stream, sampler, new ScoredMemory(memory, view), MemoryWriteSink.APPLY);
  }

  /**
   * As {@link #replay(Batch, long, NeighborSampler, MemoryStore, int)}, the batch's write handed to
   * {@code writes} instead of applied (a served batch).
   */
  public void replay(
      Batch batch,
      long stream,
      NeighborSampler sampler,
      ScoredMemory memory,
      MemoryWriteSink writes) {
    long t = System.nanoTime();
    BatchGraph writePlan = planner.planWrite(batch, stream, sampler);
    SharedReads shared = SharedReads.of(List.of(writePlan));
    Tensor updated = null;
    try {
      updated =
          sharedUpdate(
              shared,
              memory.store(),
              memory.view(),
              -1,
              new StreamParts[updateParts(shared, REPLAY_PART_ROWS)]);
      MemoryWrite w =
          step.writeOf(writePlan, updated, shared.rows(0), memory.store(), memory.view());
      writes.accept(memory, w);
    } finally {
      Tensors.release(updated);
      charge(ScorerPhase.REPLAY, t);
    }
  }

  /**
   * Builds the write of {@code plan} into each memory from its shared update (row {@code rows[u]}
   * of {@code updated[i]} is read {@code u}), each on a worker of its own (they share nothing), and
   * hands them to {@code writes} in order.
   */
  private void writeAll(
      List<ScoredMemory> memories,
      BatchGraph plan,
      Tensor[] updated,
      int[] rows,
      MemoryWriteSink writes) {
    MemoryWrite[] built = new MemoryWrite[memories.size()];
    try {
      BatchSlices.runPasses(
          pool,
          workers,
          built.length,
          i -> {
            ScoredMemory m = memories.get(i);
            built[i] = step.writeOf(plan, updated[i], rows, m.store(), m.view());
          });
    } catch (RuntimeException | Error e) {
      MemoryWriteSink.closeFrom(built, 0);
      throw e;
    }
    writes.acceptAll(memories, built);
  }

  /** Parts the shared memory update is cut into: {@link #PARTS}, at least {@code minRows} each. */
  private static int updateParts(SharedReads shared, int minRows) {
    return Math.max(1, Math.min(PARTS, shared.reads().readCount() / minRows));
  }

  /**
   * The memory update of all the batch's reads, in {@link #updateParts} parts computed in parallel
   * and concatenated in row order; retained (the caller releases it). Part {@code i} keeps its time
   * projection in {@code streamParts[i]} (null entries: none kept).
   */
  private Tensor sharedUpdate(
      SharedReads shared, MemoryStore memory, int view, int round, StreamParts[] streamParts) {
    int rows = shared.reads().readCount();
    int parts = streamParts.length;
    if (parts == 1) {
      return step.updateSharedMemory(shared.part(0, rows), memory, view, round, streamParts[0]);
    }
    // the parts write their rows in place, in parallel: no concatenation of the whole afterwards
    Tensor all = step.emptySharedUpdate(rows, memory.view(view).dim());
    try {
      BatchSlices.runPasses(
          pool,
          workers,
          parts,
          i ->
              step.updateSharedMemory(
                  shared.part(i * rows / parts, (i + 1) * rows / parts),
                  memory,
                  view,
                  round,
                  streamParts[i],
                  all,
                  i * rows / parts));
      return all;
    } catch (RuntimeException | Error e) {
      Tensors.release(all);
      throw e;
    }
  }

  /**
   * The plan of slice {@code p}, its roots keyed by their positions in the whole batch: sampled one
   * thread at a time (samplers are not reentrant), built in parallel.
   */
  private BatchGraph plan(Batch batch, int p, int perPass, long stream, NeighborSampler sampler) {
    int b = batch.size();
    int from = p * perPass;
    int to = Math.min(b, from + perPass);
    int blocks = batch.negativesPerEvent() + 2;
    Batch part = batch.slice(from, to);
    TemporalSample sample;
    synchronized (planLock) {
      sample =
          planner.sample(part, stream, sampler, BatchSlices.keysInWholeBatch(b, blocks, from, to));
    }
    return planner.plan(part, sample);
  }

  /** {@link #score} of a model without memory: each slice planned and scored in one pass. */
  private BatchScores scoreWithoutMemory(
      Batch batch, int passes, int perPass, IntFunction<BatchGraph> plan, long t) {
    int b = batch.size();
    int k = batch.negativesPerEvent();
    float[] positive = new float[b];
    float[] negative = new float[k * b];
    BatchSlices.runPasses(
        pool,
        workers,
        passes,
        p -> {
          BatchScores s = step.evaluate(plan.apply(p), null, 0, batch.index(), false);
          BatchSlices.copy(s, p * perPass, b, k, positive, negative);
        });
    charge(ScorerPhase.SCORE, t);
    return new BatchScores(positive, negative);
  }

  /** Events per pass: the fixed size, or what fits {@link #POSITIONS_PER_PASS}. */
  private int sliceSize(int b, int negatives) {
    return BatchSlices.sliceSize(
        b, negatives, eventsPerPass, positionsPerRoot, POSITIONS_PER_PASS, PARTS);
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }
}
