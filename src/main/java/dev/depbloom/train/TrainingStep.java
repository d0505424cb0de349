package dev.depbloom.train;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.Dropout;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.SampledLayer;
import dev.depbloom.sampling.TemporalSample;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.tensor.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.BoolOptional;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Optimizer;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * One step on one batch with TGL's semantics, the unit a device runs: sample, fetch, memory update,
 * embed and score, loss / backward / optimizer step, memory write. Every tensor of the step lives
 * in the step's scope. The model's train/eval mode is the caller's decision, set per phase.
 *
 * <p>With several workers, a training step splits the batch's events into contiguous shards and
 * runs fetch, memory update, forward and backward of the shards in parallel, one thread each. This
 * is the same step, not a different schedule: every shard reads the memory as it was before the
 * batch (as the whole batch does), each shard's loss is weighted by its share of the events so the
 * summed gradient is the whole batch's, the gradients are summed in shard order before one
 * optimizer step, and the shards' memory writes are merged in event order into one write, so the
 * last occurrence of a node in the batch wins (and a node gets one mail per batch, as with one
 * worker). What differs from one worker: float summation order, the uniform samples' streams
 * (derived per shard) and dropout masks (drawn from per-shard generators, see {@link Dropout}); a
 * run is reproducible for a given thread budget.
 */
public final class TrainingStep implements AutoCloseable {
  private static final long DROPOUT_KEY = RandomStreams.key("dropout");
  private final TemporalGnn model;
  private final Optimizer optimizer;
  private final NodeMemory memory; // null for memory-less models
  private final NeighborSampler sampler; // null for models that read no neighbors
  private final EventStream events;
  private final StageTimer timer;
  private final ModelConfig config;
  private final int workers;
  private final TensorVector parameters; // the model's, in a fixed order (sharded steps only)
  private final Generator[] generators; // one per shard (sharded steps only)
  private final WorkerPool pool; // workers - 1 threads (sharded steps only)

  /** A step run by the calling thread alone. */
  public TrainingStep(
      TemporalGnn model,
      Optimizer optimizer,
      NodeMemory memory,
      NeighborSampler sampler,
      EventStream events,
      StageTimer timer) {
    this(model, optimizer, memory, sampler, events, timer, 1);
  }

  /** A step whose training batches are split over {@code workers} threads (the caller is one). */
  public TrainingStep(
      TemporalGnn model,
      Optimizer optimizer,
      NodeMemory memory,
      NeighborSampler sampler,
      EventStream events,
      StageTimer timer,
      int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be positive: " + workers);
    }
    this.model = model;
    this.optimizer = optimizer;
    this.memory = memory;
    this.sampler = sampler;
    this.events = events;
    this.timer = timer;
    this.config = model.config();
    this.workers = workers;
    if (workers > 1) {
      this.parameters = model.parameters();
      this.generators = new Generator[workers];
      for (int i = 0; i < workers; i++) {
        generators[i] = torch.make_generator_cpu(i);
      }
      this.pool = new WorkerPool("depbloom-step-worker", workers - 1);
    } else {
      this.parameters = null;
      this.generators = null;
      this.pool = null;
    }
  }

  /** Trains on a batch (one negative per event) and writes its memory; returns the loss. */
  public double train(Batch batch, long stream) {
    int shards = Math.min(workers, batch.size());
    if (shards > 1) {
      blasPerThread(true);
      return trainSharded(batch, stream, shards);
    }
    try (StepScope scope = new StepScope()) {
      BatchGraph graph = timer.time(Stage.SAMPLE, () -> plan(batch, stream));
      BatchInputs in = timer.time(Stage.FETCH, () -> fetch(graph));
      optimizer.zero_grad();
      Tensor updated = timer.time(Stage.MEMORY_UPDATE, () -> model.updateMemory(in));
      double loss = timer.time(Stage.TRAIN, () -> optimize(in, updated));
      timer.run(Stage.MEMORY_WRITE, () -> write(graph, updated));
      return loss;
    }
  }

  /** Scores a batch without gradient and writes its memory, as evaluation does. */
  public BatchScores evaluate(Batch batch, long stream) {
    return evaluate(batch, stream, true);
  }

  /**
   * Scores a batch without gradient; writes its memory only if {@code writeMemory}. Scoring the
   * same events in several calls (groups of negatives) must write on the last call only.
   */
  public BatchScores evaluate(Batch batch, long stream, boolean writeMemory) {
    blasPerThread(false);
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      BatchGraph graph = timer.time(Stage.SAMPLE, () -> plan(batch, stream));
      BatchInputs in = timer.time(Stage.FETCH, () -> fetch(graph));
      Tensor updated = timer.time(Stage.MEMORY_UPDATE, () -> model.updateMemory(in));
      BatchScores scores = timer.time(Stage.TRAIN, () -> probabilities(model.score(in, updated)));
      if (writeMemory) {
        timer.run(Stage.MEMORY_WRITE, () -> write(graph, updated));
      }
      return scores;
    }
  }

  /**
   * Writes a batch's memory without scoring it (the replay of training and validation events before
   * testing). Memory-less models have nothing to replay.
   */
  public void replay(Batch batch, long stream) {
    if (memory == null) {
      return;
    }
    blasPerThread(false);
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      SampledLayer receivers =
          config.memory().deliverTo() == dev.depbloom.model.config.MemoryConfig.Delivery.NEIGHBORS
              ? sample(batch, stream).layers().get(0)
              : null;
      BatchGraph graph = BatchGraph.forMemoryWrite(batch, receivers);
      BatchInputs in = fetch(graph);
      write(graph, model.updateMemory(in));
    }
  }

  /**
   * With several workers, evaluation and replay run on the calling thread alone: they get the BLAS
   * threads of all workers ({@code sharded == false}), and a sharded training step one thread's
   * share again.
   */
  private void blasPerThread(boolean sharded) {
    ThreadBudget budget = TensorRuntime.threads();
    if (workers > 1 && budget != null) {
      TensorRuntime.blasThreads(sharded ? budget.blas() : budget.blas() * workers);
    }
  }

  private BatchGraph plan(Batch batch, long stream) {
    return BatchGraph.build(batch, sample(batch, stream), config);
  }

  private TemporalSample sample(Batch batch, long stream) {
    if (sampler == null) {
      return TemporalSample.ofLayers(List.of());
    }
    return sampler.sample(batch.roots(), batch.rootTimes(), stream);
  }

  private BatchInputs fetch(BatchGraph graph) {
    return BatchInputs.fetch(graph, memory, events, config.memory().combineNodeFeature());
  }

  private double optimize(BatchInputs in, Tensor updated) {
    Tensor loss = loss(model.score(in, updated));
    loss.backward();
    optimizer.step();
    return loss.item_double();
  }

  /** BCE with logits, mean over the positives plus mean over the negatives (TGL's loss). */
  private static Tensor loss(EdgePredictor.Scores scores) {
    Tensor pos = scores.positive();
    Tensor neg = scores.negative();
    return torch
        .binary_cross_entropy_with_logits(pos, torch.ones_like(pos))
        .add(torch.binary_cross_entropy_with_logits(neg, torch.zeros_like(neg)));
  }

  /** What a shard hands back: its weighted loss, its gradients (retained) and its memory write. */
  private record ShardResult(double loss, Tensor[] gradients, MemoryWrite write) {
    void release() {
      for (Tensor g : gradients) {
        if (g != null) {
          Tensors.release(g);
        }
      }
      if (write != null) {
        write.close();
      }
    }
  }

  /**
   * The sharded training step. Sampling stays on the calling thread, in shard (time) order, since
   * samplers keep forward-only cursors; shard 0 runs on the calling thread, whose stage times are
   * the ones recorded, and the wait for the other shards is recorded as {@code sync}.
   */
  private double trainSharded(Batch batch, long stream, int shards) {
    int b = batch.size();
    List<BatchGraph> graphs = new ArrayList<>(shards);
    for (int s = 0; s < shards; s++) {
      Batch part = batch.slice(s * b / shards, (s + 1) * b / shards);
      long shardStream = RandomStreams.extend(stream, s);
      graphs.add(timer.time(Stage.SAMPLE, () -> plan(part, shardStream)));
    }
    WorkerPool.Results<ShardResult> done =
        pool.runAll(shards, s -> runShard(graphs.get(s), stream, s, b, s == 0));
    timer.charge(Stage.SYNC, done.waitNanos());
    List<ShardResult> results = done.values();
    try {
      done.orThrow();
      double loss = 0;
      for (ShardResult r : results) {
        loss += r.loss();
      }
      try (StepScope scope = new StepScope()) {
        timer.run(Stage.TRAIN, () -> step(results));
      }
      if (memory != null) {
        timer.run(
            Stage.MEMORY_WRITE,
            () -> {
              List<MemoryWrite> writes = new ArrayList<>();
              for (ShardResult r : results) {
                writes.add(r.write());
              }
              try (StepScope scope = new StepScope();
                  MemoryWrite merged = MemoryWrite.lastWins(writes)) {
                memory.apply(merged);
              }
            });
      }
      return loss;
    } finally {
      for (ShardResult r : results) {
        if (r != null) {
          r.release();
        }
      }
    }
  }

  /**
   * Fetch, memory update, forward and backward of one shard in its own scope; the loss is weighted
   * by the shard's share of the batch's events so that the shards' gradients sum to the batch's.
   */
  private ShardResult runShard(
      BatchGraph graph, long stream, int shard, int batchSize, boolean timed) {
    StageTimer t = timed ? timer : null;
    try (StepScope scope = new StepScope()) {
      generators[shard].set_current_seed(RandomStreams.derive(stream, DROPOUT_KEY, shard));
      return Dropout.withGenerator(
          generators[shard],
          () -> {
            BatchInputs in = timed(t, Stage.FETCH, () -> fetch(graph));
            Tensor updated = timed(t, Stage.MEMORY_UPDATE, () -> model.updateMemory(in));
            double weight = (double) graph.eventCount() / batchSize;
            double[] lossValue = new double[1];
            Tensor[] grads =
                timed(
                    t,
                    Stage.TRAIN,
                    () -> {
                      Tensor loss = loss(model.score(in, updated)).mul(new Scalar(weight));
                      lossValue[0] = loss.item_double();
                      TensorVector g =
                          torch.grad(
                              new TensorVector(loss),
                              parameters,
                              new TensorVector(),
                              new BoolOptional(),
                              false,
                              true);
                      // get(i) refers into the vector, which the scope frees: keep a handle
                      Tensor[] kept = new Tensor[(int) g.size()];
                      for (int i = 0; i < kept.length; i++) {
                        Tensor gi = g.get(i);
                        kept[i] = gi.defined() ? Tensors.retain(gi.detach()) : null;
                      }
                      return kept;
                    });
            return new ShardResult(lossValue[0], grads, memoryWrite(graph, updated));
          });
    }
  }

  /** Sums the shards' gradients in shard order into the parameters' gradients and steps. */
  private void step(List<ShardResult> results) {
    optimizer.zero_grad();
    for (int i = 0; i < parameters.size(); i++) {
      Tensor sum = null;
      for (ShardResult r : results) {
        Tensor g = r.gradients()[i];
        if (g != null) {
          sum = sum == null ? g : sum.add(g);
        }
      }
      if (sum != null) {
        parameters.get(i).mutable_grad().put(sum);
      }
    }
    optimizer.step();
  }

  private static <T> T timed(StageTimer timer, Stage stage, java.util.function.Supplier<T> work) {
    return timer == null ? work.get() : timer.time(stage, work::get);
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }

  private static BatchScores probabilities(EdgePredictor.Scores scores) {
    return new BatchScores(
        Tensors.toFloats(scores.positive().sigmoid()),
        Tensors.toFloats(scores.negative().sigmoid()));
  }

  private void write(BatchGraph graph, Tensor updated) {
    if (memory == null) {
      return;
    }
    try (MemoryWrite w = memoryWrite(graph, updated)) {
      memory.apply(w);
    }
  }

  /** What the batch of {@code graph} writes to memory, or null for memory-less models. */
  private MemoryWrite memoryWrite(BatchGraph graph, Tensor updated) {
    return memory == null
        ? null
        : graph.writes().toMemoryWrite(updated, events, graph.batch().start());
  }
}
