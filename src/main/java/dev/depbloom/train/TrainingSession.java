package dev.depbloom.train;

import dev.depbloom.batch.Batch;
import dev.depbloom.batch.BatchPlan;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.NeighborSamplerFactory;
import dev.depbloom.sampling.SamplerConfig;
import dev.depbloom.sampling.TemporalCsr;
import dev.depbloom.tensor.TensorRuntime;
import java.util.List;
import org.bytedeco.pytorch.Adam;
import org.bytedeco.pytorch.AdamOptions;

/**
 * Everything one device trains with: the model (initialised from the run seed), its optimizer, node
 * memory, the neighbor sampler, negatives, and the {@link TrainingStep} over them. Owns the native
 * state; {@link #close()} frees it.
 */
public final class TrainingSession implements AutoCloseable {
  private final TrainingRun run;
  private final TemporalGnn model;
  private final Adam optimizer;
  private final NodeMemory memory; // null without memory
  private final NeighborSampler sampler; // null without sampling
  private final NegativeSampler negatives;
  private final StageTimer timer = new StageTimer();
  private final TrainingStep step;

  public TrainingSession(TrainingRun run) {
    this.run = run;
    ModelConfig config = run.config();
    TensorRuntime.applyThreads(run.threads());
    TensorRuntime.seed(RandomStreams.derive(run.seed(), RandomStreams.key("init")));
    int edgeDim = run.events().edgeFeatures().dim();
    this.model = new TemporalGnn(config, run.events().nodeFeatures().dim(), edgeDim);
    this.optimizer = new Adam(model.parameters(), new AdamOptions(config.train().learningRate()));
    this.memory =
        config.memory().enabled()
            ? new NodeMemory(
                run.events().nodeCount(),
                config.memory().dim(),
                config.memory().mailboxSize(),
                2 * config.memory().dim() + edgeDim)
            : null;
    this.sampler = config.sampling().enabled() ? sampler(run) : null;
    this.negatives = NegativeSampler.forStream(run.events(), run.events().bipartite(), run.seed());
    this.step =
        new TrainingStep(
            model, optimizer, memory, sampler, run.events(), timer, run.threads().workers());
  }

  private static NeighborSampler sampler(TrainingRun run) {
    var s = run.config().sampling();
    SamplerConfig sc =
        new SamplerConfig(
            s.strategy(),
            s.neighbors(),
            s.history(),
            s.history() > 1 ? s.duration() : 0,
            run.samplerThreads(),
            RandomStreams.derive(run.seed(), RandomStreams.key("sampler")));
    return NeighborSamplerFactory.create(sc, TemporalCsr.build(run.events(), true));
  }

  public TrainingRun run() {
    return run;
  }

  public TemporalGnn model() {
    return model;
  }

  public Adam optimizer() {
    return optimizer;
  }

  /** Node memory, or null for memory-less models. */
  public NodeMemory memory() {
    return memory;
  }

  public StageTimer timer() {
    return timer;
  }

  public TrainingStep step() {
    return step;
  }

  /** Time starts over: memory and the sampler's per-node pointers are reset. */
  public void resetTime() {
    if (memory != null) {
      memory.reset();
    }
    if (sampler != null) {
      sampler.reset();
    }
  }

  /** The batch starting at {@code start} with {@code k} negatives per event from a named stream. */
  public Batch batch(int index, int start, int end, int k, long phaseKey, int epoch) {
    int[] neg = k == 0 ? new int[0] : negatives.sample(k * (end - start), phaseKey, epoch, start);
    return Batch.of(run.events(), index, start, end, neg);
  }

  /** Batch bounds of events {@code [from, to)} with the run's batch size. */
  public List<int[]> bounds(int from, int to) {
    return BatchPlan.bounds(from, to, run.config().train().batchSize());
  }

  @Override
  public void close() {
    step.close();
    if (sampler != null) {
      sampler.close();
    }
    if (memory != null) {
      memory.close();
    }
    optimizer.close();
    model.close();
  }
}
