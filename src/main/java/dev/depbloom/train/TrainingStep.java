package dev.depbloom.train;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.SampledLayer;
import dev.depbloom.sampling.TemporalSample;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.List;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Optimizer;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * One step on one batch with TGL's semantics, the unit a device runs: sample, fetch, memory update,
 * embed and score, loss / backward / optimizer step, memory write. Every tensor of the step lives
 * in the step's scope. The model's train/eval mode is the caller's decision, set per phase.
 */
public final class TrainingStep {
  private final TemporalGnn model;
  private final Optimizer optimizer;
  private final NodeMemory memory; // null for memory-less models
  private final NeighborSampler sampler; // null for models that read no neighbors
  private final EventStream events;
  private final StageTimer timer;
  private final ModelConfig config;

  public TrainingStep(
      TemporalGnn model,
      Optimizer optimizer,
      NodeMemory memory,
      NeighborSampler sampler,
      EventStream events,
      StageTimer timer) {
    this.model = model;
    this.optimizer = optimizer;
    this.memory = memory;
    this.sampler = sampler;
    this.events = events;
    this.timer = timer;
    this.config = model.config();
  }

  /** Trains on a batch (one negative per event) and writes its memory; returns the loss. */
  public double train(Batch batch, long stream) {
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
    EdgePredictor.Scores scores = model.score(in, updated);
    Tensor pos = scores.positive();
    Tensor neg = scores.negative();
    Tensor loss =
        torch
            .binary_cross_entropy_with_logits(pos, torch.ones_like(pos))
            .add(torch.binary_cross_entropy_with_logits(neg, torch.zeros_like(neg)));
    loss.backward();
    optimizer.step();
    return loss.item_double();
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
    try (MemoryWrite w = graph.writes().toMemoryWrite(updated, events, graph.batch().start())) {
      memory.apply(w);
    }
  }
}
