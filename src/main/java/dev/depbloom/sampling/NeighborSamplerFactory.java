package dev.depbloom.sampling;

/**
 * Builds the sampler a {@link SamplerConfig} describes: the one place that looks at the strategy.
 * The caller owns the sampler and closes it.
 */
public final class NeighborSamplerFactory {
  private NeighborSamplerFactory() {}

  public static NeighborSampler create(SamplerConfig config, TemporalCsr csr) {
    int[] fanouts = config.fanoutArray();
    SnapshotWindows windows = config.windows();
    return switch (config.strategy()) {
      case RECENT -> new RecentNeighborSampler(csr, fanouts, windows, config.threads());
      case UNIFORM ->
          new UniformNeighborSampler(csr, fanouts, windows, config.threads(), config.seed());
    };
  }
}
