package dev.depbloom.bench;

import dev.depbloom.batch.Batch;
import dev.depbloom.batch.BatchPlan;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.NeighborSamplerFactory;
import dev.depbloom.sampling.SamplerConfig;
import dev.depbloom.sampling.SamplingStrategy;
import dev.depbloom.sampling.TemporalCsr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Neighbor sampling throughput as training sees it: the training events (first 70%) in batches of
 * 600 in time order, roots {@code [src | dst | neg]} with negatives uniform over the destination
 * set, the CSR over all events (both directions). Two workloads: TGN's 1-layer {@code recent}
 * fanout 10, and TGAT's 2-layer {@code uniform} {@code [10, 10]}. A pass resets the sampler and
 * samples every batch once; warm-up passes are not measured. Throughput is sampled neighbors (all
 * layers) per second of sampling; batch roots are built before timing starts.
 */
public final class SamplerBenchmark {
  public static final int BATCH_SIZE = 600;
  public static final List<Integer> RECENT_FANOUTS = List.of(10);
  public static final List<Integer> UNIFORM_FANOUTS = List.of(10, 10);

  /**
   * Throughput of one workload over the measured passes.
   *
   * @param neighborsPerPass sampled neighbors of one pass, all layers (the same every pass)
   */
  public record Measurement(
      String strategy,
      List<Integer> fanouts,
      int threads,
      int passes,
      long neighborsPerPass,
      long medianPerSecond,
      long minPerSecond,
      long maxPerSecond) {}

  private final TemporalCsr csr;
  private final List<Batch> batches; // training batches in time order
  private final long seed;

  public SamplerBenchmark(EventStream events, long seed) {
    this.csr = TemporalCsr.build(events, true);
    this.seed = seed;
    this.batches = trainingBatches(events, seed);
  }

  private static List<Batch> trainingBatches(EventStream events, long seed) {
    int trainEnd = Split.of(events).trainEnd();
    NegativeSampler negatives = NegativeSampler.forStream(events, true, seed);
    List<Batch> out = new ArrayList<>();
    for (int[] b : BatchPlan.bounds(0, trainEnd, BATCH_SIZE)) {
      int index = out.size();
      out.add(Batch.of(events, index, b[0], b[1], negatives.sample(b[1] - b[0], index)));
    }
    return out;
  }

  public int batchCount() {
    return batches.size();
  }

  public int trainEvents() {
    if (batches.isEmpty()) {
      return 0;
    }
    Batch last = batches.get(batches.size() - 1);
    return last.event(last.size() - 1) + 1;
  }

  /** TGN's workload: 1 layer, 10 most recent. */
  public Measurement measureRecent(int threads, int warmupPasses, int passes) {
    return measure(
        SamplerConfig.of(SamplingStrategy.RECENT, RECENT_FANOUTS).withThreads(threads),
        warmupPasses,
        passes);
  }

  /** TGAT's workload: 2 layers, 10 uniform draws each. */
  public Measurement measureUniform(int threads, int warmupPasses, int passes) {
    return measure(
        SamplerConfig.of(SamplingStrategy.UNIFORM, UNIFORM_FANOUTS)
            .withThreads(threads)
            .withSeed(seed),
        warmupPasses,
        passes);
  }

  /** Runs {@code warmupPasses} unmeasured and {@code passes} measured passes of the config. */
  public Measurement measure(SamplerConfig config, int warmupPasses, int passes) {
    if (passes < 1 || warmupPasses < 0) {
      throw new IllegalArgumentException("need at least one measured pass and no negative warm-up");
    }
    double[] perSecond = new double[passes];
    long neighbors = 0;
    try (NeighborSampler sampler = NeighborSamplerFactory.create(config, csr)) {
      for (int pass = -warmupPasses; pass < passes; pass++) {
        sampler.reset();
        long start = System.nanoTime();
        neighbors = samplePass(sampler);
        long nanos = System.nanoTime() - start;
        if (pass >= 0) {
          perSecond[pass] = neighbors * 1e9 / nanos;
        }
      }
    }
    Arrays.sort(perSecond);
    double median =
        passes % 2 == 1
            ? perSecond[passes / 2]
            : (perSecond[passes / 2 - 1] + perSecond[passes / 2]) / 2;
    return new Measurement(
        config.strategy().configName(),
        config.fanouts(),
        config.threads(),
        passes,
        neighbors,
        Math.round(median),
        Math.round(perSecond[0]),
        Math.round(perSecond[passes - 1]));
  }

  private long samplePass(NeighborSampler sampler) {
    long neighbors = 0;
    for (Batch batch : batches) {
      neighbors += sampler.sample(batch.roots(), batch.rootTimes(), batch.index()).sampleCount();
    }
    return neighbors;
  }
}
