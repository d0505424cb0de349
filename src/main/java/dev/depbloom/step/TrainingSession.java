package dev.depbloom.step;

import dev.depbloom.batch.Batch;
import dev.depbloom.batch.BatchPlan;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.NeighborSamplerFactory;
import dev.depbloom.sampling.SamplerConfig;
import dev.depbloom.sampling.TemporalCsr;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.TensorRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a process trains with: the model replica (initialised from the run seed) and its
 * optimizer, the memory store with one view per memory group of the schedule, one neighbor sampler
 * per view (each keeps its own forward-only cursors, since groups walk time separately), negatives,
 * the batch planner and the device step over them. Owns the native state; {@link #close()} frees
 * it.
 */
public final class TrainingSession implements AutoCloseable {
  /** How long a memory read waits for a pending write before the run fails. */
  public static final long READ_TIMEOUT_MILLIS = 300_000;

  private final SessionSpec spec;
  private final Replica replica;
  private final MemoryStore memory; // null without memory
  private final List<NeighborSampler> samplers; // one per view; empty without sampling
  private final TemporalCsr csr; // null without sampling
  private final NegativeSampler negatives;
  private final BatchPlanner planner;
  private final DeviceStep step;

  /** A session whose replica lives on this process's device ({@link RankDevice#forThisProcess}). */
  public TrainingSession(SessionSpec spec) {
    this(spec, RankDevice.forThisProcess());
  }

  /** A session whose replica lives on {@code device} (node memory stays on the host). */
  public TrainingSession(SessionSpec spec, RankDevice device) {
    this.spec = spec;
    ModelConfig config = spec.config();
    TensorRuntime.applyThreads(spec.threads());
    int views = spec.memoryViews();
    this.replica = newReplica(spec, device);
    this.memory =
        config.memory().enabled()
            ? memoryStore(spec, views, spec.events().nodeCount())
            : MemoryStore.none();
    this.samplers = new ArrayList<>();
    this.csr = config.sampling().enabled() ? TemporalCsr.build(spec.events(), true) : null;
    if (csr != null) {
      for (int v = 0; v < views; v++) {
        samplers.add(sampler(spec, csr));
      }
    }
    this.negatives =
        NegativeSampler.forStream(spec.events(), spec.events().bipartite(), spec.seed());
    this.planner = new BatchPlanner(config);
    this.step = new DeviceStep(replica, spec.events().features());
  }

  /** The model replica of {@code spec}, its parameters initialised from the run seed. */
  public static Replica newReplica(SessionSpec spec, RankDevice device) {
    return new Replica(
        spec.config(),
        spec.events().nodeFeatures().dim(),
        spec.events().edgeFeatures().dim(),
        spec.learningRate(),
        RandomStreams.derive(spec.seed(), RandomStreams.key("init")),
        device);
  }

  private static NeighborSampler sampler(SessionSpec spec, TemporalCsr csr) {
    return NeighborSamplerFactory.create(samplerConfig(spec), csr);
  }

  /**
   * What the run's samplers sample (strategy, fanouts, snapshots, threads, seed): a sampler over
   * any rows of the same events built from it samples what the session's samplers sample.
   */
  public static SamplerConfig samplerConfig(SessionSpec spec) {
    var s = spec.config().sampling();
    return new SamplerConfig(
        s.strategy(),
        s.neighbors(),
        s.history(),
        s.history() > 1 ? s.duration() : 0,
        spec.samplerThreads(),
        RandomStreams.derive(spec.seed(), RandomStreams.key("sampler")));
  }

  public SessionSpec spec() {
    return spec;
  }

  public Replica replica() {
    return replica;
  }

  /** The memory store ({@link MemoryStore#none()} for memory-less models). */
  public MemoryStore memory() {
    return memory;
  }

  public BatchPlanner planner() {
    return planner;
  }

  public DeviceStep step() {
    return step;
  }

  /** The sampler of a memory view, or null for models that read no neighbors. */
  public NeighborSampler sampler(int view) {
    return samplers.isEmpty() ? null : samplers.get(view);
  }

  /**
   * A sampler of its own, with fresh cursors, drawing what the views' samplers draw (samples depend
   * only on the stream and the seed); null for models that read no neighbors. The caller closes it.
   */
  public NeighborSampler newSampler() {
    return csr == null ? null : sampler(spec, csr);
  }

  /** Time starts over for one view: its memory and its sampler's cursors are reset. */
  public void resetView(int view) {
    memory.reset(view);
    resetSampler(view);
  }

  /** The cursors of one view's sampler start over; its memory is untouched. */
  public void resetSampler(int view) {
    if (!samplers.isEmpty()) {
      samplers.get(view).reset();
    }
  }

  /**
   * A new memory store of one view, shaped as this session's and reset: TGL's test protocol replays
   * into it while the session's store keeps what validation left ({@link MemoryStore#none()} for
   * memory-less models). The caller closes it.
   */
  public MemoryStore freshMemory() {
    return memory.isNone() ? MemoryStore.none() : memoryStore(spec, 1, spec.events().nodeCount());
  }

  /**
   * A memory store of {@code views} views shaped for {@code spec}'s model, with {@code rows} rows
   * (the stream's nodes, or more for nodes a served stream adds), reset.
   */
  public static MemoryStore memoryStore(SessionSpec spec, int views, int rows) {
    ModelConfig config = spec.config();
    return new MemoryStore(
        views,
        rows,
        config.memory().dim(),
        config.memory().mailboxSize(),
        config.memory().mailDim(spec.events().edgeFeatures().dim()),
        READ_TIMEOUT_MILLIS);
  }

  /**
   * The batch of events {@code [start, end)} with {@code k} negatives per event, drawn from the
   * stream named by {@code keys}.
   */
  public Batch batch(int index, int start, int end, int k, long... keys) {
    int[] neg = k == 0 ? new int[0] : negatives.sample(k * (end - start), keys);
    return Batch.of(spec.events(), index, start, end, neg);
  }

  /** The batch of the events {@code eventIds} with {@code k} negatives per event, as above. */
  public Batch batch(int index, int[] eventIds, int k, long... keys) {
    int[] neg = k == 0 ? new int[0] : negatives.sample(k * eventIds.length, keys);
    return Batch.ofEvents(spec.events(), index, eventIds, neg);
  }

  /** Batch bounds of events {@code [from, to)} with the run's batch size. */
  public List<int[]> bounds(int from, int to) {
    return BatchPlan.bounds(from, to, spec.config().train().batchSize());
  }

  @Override
  public void close() {
    for (NeighborSampler s : samplers) {
      s.close();
    }
    memory.close();
    replica.close();
  }
}
