package dev.depbloom.step;

import dev.depbloom.batch.Batch;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.SampledLayer;
import dev.depbloom.sampling.TemporalSample;
import java.util.List;

/**
 * The sample stage: a batch's temporal neighborhood and its plan ({@link BatchGraph}). Runs on the
 * coordinating thread, in time order per sampler, since samplers keep forward-only cursors.
 */
public final class BatchPlanner {
  private final ModelConfig config;

  public BatchPlanner(ModelConfig config) {
    this.config = config;
  }

  /** The full plan of a batch; {@code sampler} is null for models that read no neighbors. */
  public BatchGraph plan(Batch batch, long stream, NeighborSampler sampler) {
    return BatchGraph.build(batch, sample(batch, stream, sampler), config);
  }

  /**
   * The full plan of a batch whose roots are sampled under {@code rootKeys} instead of their
   * positions: a part of a larger batch (a slice of its events, a group of its negatives) keyed by
   * its roots' positions in the whole batch gets the neighborhoods one plan of the whole batch
   * would give them (see {@link NeighborSampler#sample(int[], double[], long, int[])}).
   *
   * @param rootKeys {@code [R]} key of each root of {@code batch}
   */
  public BatchGraph plan(Batch batch, long stream, NeighborSampler sampler, int[] rootKeys) {
    return plan(batch, sample(batch, stream, sampler, rootKeys));
  }

  /**
   * The neighborhood of a batch's roots under {@code rootKeys}: the first half of {@link
   * #plan(Batch, long, NeighborSampler, int[])}, the only one that uses the sampler (which is not
   * reentrant), so that several threads can plan with one sampler, sampling one at a time.
   */
  public TemporalSample sample(Batch batch, long stream, NeighborSampler sampler, int[] rootKeys) {
    if (rootKeys.length != batch.roots().length) {
      throw new IllegalArgumentException(
          rootKeys.length + " root keys for " + batch.roots().length + " roots");
    }
    return sampler == null
        ? TemporalSample.ofLayers(List.of())
        : sampler.sample(batch.roots(), batch.rootTimes(), stream, rootKeys);
  }

  /** The plan of a batch from its sampled neighborhood; touches no sampler. */
  public BatchGraph plan(Batch batch, TemporalSample sample) {
    return BatchGraph.build(batch, sample, config);
  }

  /**
   * The plan of a batch that only writes memory (the replay before testing): reads of the roots,
   * and the sampled receivers when mail goes to neighbors.
   */
  public BatchGraph planWrite(Batch batch, long stream, NeighborSampler sampler) {
    SampledLayer receivers =
        config.memory().deliverTo() == MemoryConfig.Delivery.NEIGHBORS
            ? sample(batch, stream, sampler).layers().get(0)
            : null;
    return BatchGraph.forMemoryWrite(batch, receivers);
  }

  private static TemporalSample sample(Batch batch, long stream, NeighborSampler sampler) {
    if (sampler == null) {
      return TemporalSample.ofLayers(List.of());
    }
    return sampler.sample(batch.roots(), batch.rootTimes(), stream);
  }
}
