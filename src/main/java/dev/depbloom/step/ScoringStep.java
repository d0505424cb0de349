package dev.depbloom.step;

import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.WriteOrigin;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.ReadPlan;
import dev.depbloom.model.SharedReads;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.nn.StreamParts;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;

/**
 * A {@link DeviceStep}'s stages without gradient, for everything but training: scoring planned
 * batches for validation, testing and serving (one memory, or several sharing one memory update),
 * writing their memory, and replaying batches into memory (before testing, a DepBloom prefill, a
 * served stream). It fetches and builds writes as the training step does ({@link DeviceStep#fetch},
 * {@link DeviceStep#memoryWrite}), so a scored batch reads and writes exactly what a trained one
 * would.
 */
public final class ScoringStep {
  private final DeviceStep step;
  private final TemporalGnn model;
  private final StreamFeatures features;
  private final RankDevice device;

  ScoringStep(DeviceStep step, TemporalGnn model, StreamFeatures features, RankDevice device) {
    this.step = step;
    this.model = model;
    this.features = features;
    this.device = device;
  }

  /**
   * Scores a planned batch without gradient, reading memory view {@code view}; writes the batch's
   * memory there if {@code writeMemory} (scoring the same events in several calls, as groups of
   * negatives, must write on the last call only).
   */
  public BatchScores evaluate(
      BatchGraph graph, MemoryStore memory, int view, int round, boolean writeMemory) {
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      DeviceStep.Task task = new DeviceStep.Task(0, view, round, graph, 1, 0, 0);
      BatchInputs in = step.fetch(task, memory, null);
      Tensor updated = model.updateMemory(in);
      EdgePredictor.Scores scores = model.predict(model.embed(in, updated), graph.eventCount());
      BatchScores out =
          new BatchScores(
              Tensors.toFloats(scores.positive().sigmoid()),
              Tensors.toFloats(scores.negative().sigmoid()));
      if (writeMemory && !memory.isNone()) {
        try (MemoryWrite w = step.memoryWrite(graph, updated, memory.view(view))) {
          memory.apply(view, w);
        }
      }
      return out;
    }
  }

  /**
   * The updated memory of {@code reads} in view {@code view}, computed once for several plans that
   * read those rows ({@link SharedReads}), without gradient; retained past the call, so the caller
   * must free it ({@link Tensors#release}). {@code parts} (or null) keeps the updater's time
   * projection for the same reads in another memory.
   */
  public Tensor updateSharedMemory(
      ReadPlan reads, MemoryStore memory, int view, int round, StreamParts parts) {
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      return Tensors.retain(model.updateMemory(sharedReads(reads, memory, view, round), parts));
    }
  }

  /**
   * As {@link #updateSharedMemory(ReadPlan, MemoryStore, int, int, StreamParts)}, the rows written
   * into rows {@code fromRow ..} of {@code into} (from {@link #emptySharedUpdate}), which the other
   * parts of the same update fill in parallel.
   */
  public void updateSharedMemory(
      ReadPlan reads,
      MemoryStore memory,
      int view,
      int round,
      StreamParts parts,
      Tensor into,
      long fromRow) {
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      model.updateMemoryInto(
          sharedReads(reads, memory, view, round),
          parts,
          into.narrow(0, fromRow, reads.readCount()));
    }
  }

  /** The inputs of a shared memory update of {@code reads}, once they are readable in the view. */
  private BatchInputs sharedReads(ReadPlan reads, MemoryStore memory, int view, int round) {
    memory.awaitReadable(view, reads.distinctNodes(), round);
    return BatchInputs.forMemoryUpdate(reads, memory.view(view)).on(device);
  }

  /**
   * An uninitialised {@code [rows, dim]} float tensor on this step's device for a shared memory
   * update's parts to write into; retained (the caller frees it, {@link Tensors#release}).
   */
  public Tensor emptySharedUpdate(int rows, int dim) {
    try (StepScope scope = new StepScope()) {
      return Tensors.retain(device.empty(rows, dim));
    }
  }

  /**
   * Scores a planned batch without gradient once per memory in {@code memories}, the memory update
   * of memory {@code i} taken from {@code shared[i]}, the update of {@link #updateSharedMemory}:
   * row {@code rows[u]} of it is the plan's read {@code u}. Writes nothing. Slices of a batch are
   * scored this way in parallel. What depends only on the plan (its inputs, the attention layers'
   * edge and time projections) is computed once for all memories; each memory's scores equal those
   * of a call with that memory alone.
   */
  public List<BatchScores> evaluate(
      BatchGraph graph, Tensor[] shared, int[] rows, List<ScoredMemory> memories) {
    List<BatchScores> out = new ArrayList<>(memories.size());
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard();
        StreamParts parts = new StreamParts()) {
      BatchInputs first =
          BatchInputs.fetchWithSharedUpdate(
                  graph,
                  memories.get(0).store().view(memories.get(0).view()),
                  features,
                  model.config().memory().combineNodeFeature())
              .on(device);
      Tensor index = device.place(Tensors.indices(rows));
      for (int i = 0; i < memories.size(); i++) {
        // one scope per memory: the first memory's activations are freed before the next one's
        try (StepScope perMemory = new StepScope()) {
          ScoredMemory m = memories.get(i);
          BatchInputs in =
              i == 0 ? first : first.withSharedUpdateOf(m.store().view(m.view()), device);
          Tensor updated = shared[i].index_select(0, index); // [U, dim]
          EdgePredictor.Scores scores =
              model.predict(
                  model.embed(in, updated, memories.size() > 1 ? parts : null), graph.eventCount());
          out.add(
              new BatchScores(
                  Tensors.toFloats(scores.positive().sigmoid()),
                  Tensors.toFloats(scores.negative().sigmoid())));
        }
      }
    }
    return out;
  }

  /**
   * Writes a planned memory-only batch ({@link BatchPlanner#planWrite}) into view {@code view}, its
   * updated memory taken from {@code shared} as in {@link #evaluate(BatchGraph, Tensor[], int[],
   * List)}: the test pass writes what its slices' shared update already computed.
   */
  public void write(BatchGraph graph, Tensor shared, int[] rows, MemoryStore memory, int view) {
    try (MemoryWrite w = writeOf(graph, shared, rows, memory, view)) {
      memory.apply(view, w);
    }
  }

  /**
   * The write {@link #write} applies, returned instead: the caller applies it to view {@code view}
   * of {@code memory} (before any other write to it) and closes it.
   */
  public MemoryWrite writeOf(
      BatchGraph graph, Tensor shared, int[] rows, MemoryStore memory, int view) {
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      Tensor updated = shared.index_select(0, device.place(Tensors.indices(rows))); // [U, dim]
      return step.memoryWrite(graph, updated, memory.view(view));
    }
  }

  /**
   * Writes a planned memory-only batch ({@link BatchPlanner#planWrite}) into view {@code view} as a
   * replay: of training and validation events before testing, or of another chain's events (a
   * DepBloom prefill).
   */
  public void replay(BatchGraph graph, MemoryStore memory, int view) {
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      BatchInputs in = step.fetch(new DeviceStep.Task(0, view, -1, graph, 1, 0, 0), memory, null);
      try (MemoryWrite w = step.memoryWrite(graph, model.updateMemory(in), memory.view(view))) {
        memory.apply(view, w, -1, WriteOrigin.REPLAY);
      }
    }
  }
}
