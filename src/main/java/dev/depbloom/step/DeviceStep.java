package dev.depbloom.step;

import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryReader;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.WriteOrigin;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.ReadPlan;
import dev.depbloom.model.SharedReads;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.Dropout;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.nn.StreamParts;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.tensor.Autograd;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * What one logical device does with one work item, in the order of the data flow: refine (for a
 * refined micro-batch, wait for the earlier micro-batches' writes and read through them), fetch
 * (memory, mail, features of the planned batch), memory update, the memory write (built now, so
 * that later micro-batches can read through it), embed, predict, loss, backward. The result is the
 * item's gradients of its weighted loss and the memory write it produces, as values; the schedule
 * sums the gradients, steps the optimizer once and commits the writes. Sampling (the plan) happens
 * before, on the coordinating thread; every tensor of the step lives in the step's scope.
 *
 * <p>The same stages without gradient score batches for validation and testing ({@link #evaluate})
 * and rebuild memory before testing ({@link #replay}).
 */
public final class DeviceStep {
  private final Replica replica;
  private final TemporalGnn model;
  private final StreamFeatures features; // what batches read of the stream
  private final ModelConfig config;
  private final RankDevice device; // the replica's: every batch is placed there
  private final LargeBatchStep largeBatches;

  /**
   * One task: a logical device's work item (or one event shard of it).
   *
   * @param device the logical device
   * @param view the memory view the item reads
   * @param round the round it belongs to (named in errors and traces)
   * @param graph the planned batch
   * @param weight the item's share of the round's events: its loss is scaled by it, so the sum of
   *     the round's gradients is the gradient of the round's mean loss
   * @param dropoutSeed seed of the item's dropout masks (keyed by logical identities only)
   * @param shard the shard index within the item (0 when the item is not split)
   * @param readThrough the earlier micro-batches of the item's large batch whose writes it reads
   *     through when it is refined, else {@link ReadThrough#NONE}
   * @param microBatches the micro-batches of a large batch trained on this device ({@link
   *     LargeBatch}; {@code graph} is then their concatenation): one memory update and write each,
   *     in order, each reading through the earlier ones' writes when {@code readThrough} refines,
   *     then one training pass over all; empty for a task of one batch
   * @param writesMemory false for an epoch-parallel copy other than the first (DistTGL's {@code
   *     j}): it trains on events another task writes
   */
  public record Task(
      int device,
      int view,
      int round,
      BatchGraph graph,
      double weight,
      long dropoutSeed,
      int shard,
      ReadThrough readThrough,
      List<BatchGraph> microBatches,
      boolean writesMemory) {
    public Task {
      microBatches = List.copyOf(microBatches);
    }

    /** A task that writes memory. */
    public Task(
        int device,
        int view,
        int round,
        BatchGraph graph,
        double weight,
        long dropoutSeed,
        int shard,
        ReadThrough readThrough,
        List<BatchGraph> microBatches) {
      this(device, view, round, graph, weight, dropoutSeed, shard, readThrough, microBatches, true);
    }

    /** A task of one batch. */
    public Task(
        int device,
        int view,
        int round,
        BatchGraph graph,
        double weight,
        long dropoutSeed,
        int shard,
        ReadThrough readThrough) {
      this(device, view, round, graph, weight, dropoutSeed, shard, readThrough, List.of());
    }

    /** A task without refinement. */
    public Task(
        int device,
        int view,
        int round,
        BatchGraph graph,
        double weight,
        long dropoutSeed,
        int shard) {
      this(device, view, round, graph, weight, dropoutSeed, shard, ReadThrough.NONE);
    }
  }

  /**
   * What a task computed: its weighted loss, its gradients (one per parameter, retained past the
   * step's scope, null where unreached), its memory writes for its view, in the order they apply
   * (one per batch, one per micro-batch of a large batch; none for memory-less models), when it
   * finished, and the bytes of its inputs (memory and mailbox rows; everything else built on the
   * host; what a per-sampled-edge feature gather would add), for a projection's traffic. {@link
   * #close()} frees the tensors.
   */
  public record Result(
      Task task,
      double loss,
      Tensor[] gradients,
      List<DeviceWrite> writes,
      long endNanos,
      long memoryReadBytes,
      long inputBytes,
      long repeatedEdgeFeatureBytes)
      implements AutoCloseable {
    public Result {
      writes = List.copyOf(writes);
    }

    /** Bytes of the rows and mails the task writes, with ids and times. */
    public long writeBytes() {
      long n = 0;
      for (DeviceWrite w : writes) {
        n += w.write().rowBytes(null);
      }
      return n;
    }

    @Override
    public void close() {
      for (Tensor g : gradients) {
        if (g != null) {
          Tensors.release(g);
        }
      }
      writes.forEach(DeviceWrite::close);
    }
  }

  /** A step of {@code replica} over a stream's {@code features} (fixed, or growing as served). */
  public DeviceStep(Replica replica, StreamFeatures features) {
    this.replica = replica;
    this.model = replica.model();
    this.features = features;
    this.config = model.config();
    this.device = replica.device();
    this.largeBatches = new LargeBatchStep(this, model, features, device);
  }

  /**
   * Runs a training task on the calling thread with dropout masks from {@code generator} (seeded
   * from the task), timing each stage on {@code timer}.
   */
  public Result train(Task task, MemoryStore memory, Generator generator, StageTimer timer) {
    try (StepScope scope = new StepScope()) {
      generator.set_current_seed(task.dropoutSeed());
      return Dropout.withGenerator(generator, () -> trainItem(task, memory, timer));
    } catch (RuntimeException e) {
      task.readThrough().fail(e);
      throw e;
    }
  }

  private Result trainItem(Task task, MemoryStore memory, StageTimer timer) {
    if (!task.microBatches().isEmpty()) {
      return largeBatches.train(task, memory, timer);
    }
    ReadThrough link = task.readThrough();
    List<MemoryWrite> earlier = timer.time(Stage.SYNC, link::awaitEarlier);
    ReadThrough.Overlay overlay =
        timer.time(Stage.REFINE, () -> link.overlay(memory, task.view(), task.round(), earlier));
    try {
      BatchInputs in = timer.time(Stage.FETCH, () -> fetch(task, memory, overlay));
      Tensor updated = timer.time(Stage.MEMORY_UPDATE, () -> model.updateMemory(in));
      MemoryReader read = overlay != null || memory.isNone() ? overlay : memory.view(task.view());
      MemoryWrite write =
          task.writesMemory()
              ? timer.time(Stage.MEMORY_WRITE, () -> memoryWrite(task.graph(), updated, read))
              : null;
      link.publish(write);
      double[] loss = new double[1];
      Tensor[] gradients = timer.time(Stage.TRAIN, () -> trainPass(task, in, updated, loss));
      List<DeviceWrite> out =
          write == null ? List.of() : List.of(new DeviceWrite(task.device(), task.view(), write));
      return new Result(
          task,
          loss[0],
          gradients,
          out,
          System.nanoTime(),
          in.memoryBytes(),
          in.hostBytes(),
          in.repeatedEdgeFeatureBytes());
    } finally {
      if (overlay != null) {
        overlay.close();
      }
    }
  }

  /**
   * Embedding, prediction, loss and backward of the task's events from its inputs and updated
   * memory; {@code loss[0]} receives the weighted loss.
   */
  Tensor[] trainPass(Task task, BatchInputs in, Tensor updated, double[] loss) {
    Tensor h = model.embed(in, updated);
    EdgePredictor.Scores scores = model.predict(h, task.graph().eventCount());
    Tensor weighted = weighted(loss(scores), task.weight());
    loss[0] = weighted.item_double();
    return backward(weighted);
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
      Task task = new Task(0, view, round, graph, 1, 0, 0);
      BatchInputs in = fetch(task, memory, null);
      Tensor updated = model.updateMemory(in);
      EdgePredictor.Scores scores = model.predict(model.embed(in, updated), graph.eventCount());
      BatchScores out =
          new BatchScores(
              Tensors.toFloats(scores.positive().sigmoid()),
              Tensors.toFloats(scores.negative().sigmoid()));
      if (writeMemory && !memory.isNone()) {
        try (MemoryWrite w = memoryWrite(graph, updated, memory.view(view))) {
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
                  config.memory().combineNodeFeature())
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
      return memoryWrite(graph, updated, memory.view(view));
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
      BatchInputs in = fetch(new Task(0, view, -1, graph, 1, 0, 0), memory, null);
      try (MemoryWrite w = memoryWrite(graph, model.updateMemory(in), memory.view(view))) {
        memory.apply(view, w, -1, WriteOrigin.REPLAY);
      }
    }
  }

  /**
   * Gathers the batch's inputs, once no row it reads has a pending write; through {@code overlay}
   * when the item is refined.
   */
  private BatchInputs fetch(Task task, MemoryStore memory, ReadThrough.Overlay overlay) {
    BatchGraph graph = task.graph();
    MemoryReader reader = null;
    if (graph.reads() != null) {
      memory.awaitReadable(task.view(), graph.reads().distinctNodes(), task.round());
      reader = overlay != null ? overlay : memory.view(task.view());
    }
    return BatchInputs.fetch(graph, reader, features, config.memory().combineNodeFeature())
        .on(device);
  }

  /** BCE with logits, mean over the positives plus mean over the negatives (TGL's loss). */
  private static Tensor loss(EdgePredictor.Scores scores) {
    Tensor pos = scores.positive();
    Tensor neg = scores.negative();
    return torch
        .binary_cross_entropy_with_logits(pos, torch.ones_like(pos))
        .add(torch.binary_cross_entropy_with_logits(neg, torch.zeros_like(neg)));
  }

  private static Tensor weighted(Tensor loss, double weight) {
    return weight == 1 ? loss : loss.mul(new Scalar(weight));
  }

  /** Gradients of {@code loss} per parameter, detached and retained past the step's scope. */
  private Tensor[] backward(Tensor loss) {
    return Autograd.gradients(loss, replica.parameters());
  }

  /**
   * What the batch of {@code graph} writes to memory, or null for memory-less models; built on the
   * host, where memory lives, from the updated memory. {@code read} is the memory the batch read
   * (the mails' time deltas are measured from it, with memory {@code time_delta: mail}).
   */
  MemoryWrite memoryWrite(BatchGraph graph, Tensor updated, MemoryReader read) {
    if (graph.writes() == null) {
      return null;
    }
    MemoryReader deltaBase =
        config.memory().timeDelta() == MemoryConfig.TimeDelta.MAIL ? read : null;
    return graph
        .writes()
        .toMemoryWrite(Tensors.host(updated), features, graph.batch().events(), deltaBase);
  }
}
