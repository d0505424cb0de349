package dev.depbloom.step;

import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryReader;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.Dropout;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.observe.Stage;
import dev.depbloom.tensor.Autograd;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.List;
import org.bytedeco.pytorch.Generator;
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
 * <p>The same stages without gradient score batches for validation, testing and serving and rebuild
 * memory by replay: {@link ScoringStep}, {@link #scoring()}.
 */
public final class DeviceStep {
  private final Replica replica;
  private final TemporalGnn model;
  private final StreamFeatures features; // what batches read of the stream
  private final ModelConfig config;
  private final RankDevice device; // the replica's: every batch is placed there
  private final LargeBatchStep largeBatches;
  private final ScoringStep scoring;

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
    this.scoring = new ScoringStep(this, model, features, device);
  }

  /** The same stages without gradient: scoring, writing and replaying batches. */
  public ScoringStep scoring() {
    return scoring;
  }

  /**
   * Runs a training task on the calling thread with dropout masks from {@code generator} (seeded
   * from the task), measuring each stage on {@code clock}.
   */
  public Result train(Task task, MemoryStore memory, Generator generator, StageClock clock) {
    try (StepScope scope = new StepScope()) {
      generator.set_current_seed(task.dropoutSeed());
      return Dropout.withGenerator(generator, () -> trainItem(task, memory, clock));
    } catch (RuntimeException e) {
      task.readThrough().fail(e);
      throw e;
    }
  }

  private Result trainItem(Task task, MemoryStore memory, StageClock clock) {
    if (!task.microBatches().isEmpty()) {
      return largeBatches.train(task, memory, clock);
    }
    ReadThrough link = task.readThrough();
    List<MemoryWrite> earlier = clock.time(Stage.SYNC, link::awaitEarlier);
    ReadThrough.Overlay overlay =
        clock.time(Stage.REFINE, () -> link.overlay(memory, task.view(), task.round(), earlier));
    try {
      BatchInputs in = clock.time(Stage.FETCH, () -> fetch(task, memory, overlay));
      Tensor updated = clock.time(Stage.MEMORY_UPDATE, () -> model.updateMemory(in));
      MemoryReader read = overlay != null || memory.isNone() ? overlay : memory.view(task.view());
      MemoryWrite write =
          task.writesMemory()
              ? clock.time(Stage.MEMORY_WRITE, () -> memoryWrite(task.graph(), updated, read))
              : null;
      link.publish(write);
      double[] loss = new double[1];
      Tensor[] gradients = clock.time(Stage.TRAIN, () -> trainPass(task, in, updated, loss));
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
   * Gathers the batch's inputs, once no row it reads has a pending write; through {@code overlay}
   * when the item is refined.
   */
  BatchInputs fetch(Task task, MemoryStore memory, ReadThrough.Overlay overlay) {
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
