package dev.depbloom.sampling;

/**
 * Builds the sampler a {@link SamplerConfig} describes: the one place that looks at the strategy.
 * The caller owns the sampler and closes it.
 */
public final class NeighborSamplerFactory {
  private NeighborSamplerFactory() {}

  /** A sampler with TGL's forward time pointers: its calls must not overlap. */
  public static NeighborSampler create(SamplerConfig config, TemporalAdjacency rows) {
    return create(config, rows, true);
  }

  /**
   * A sampler without time pointers, whose calls may overlap (concurrent scoring): every search is
   * a binary search over a row. It samples exactly what {@link #create} samples.
   */
  public static NeighborSampler createReentrant(SamplerConfig config, TemporalAdjacency rows) {
    return create(config, rows, false);
  }

  private static NeighborSampler create(
      SamplerConfig config, TemporalAdjacency rows, boolean timeCursors) {
    int[] fanouts = config.fanoutArray();
    SnapshotWindows windows = config.windows();
    return switch (config.strategy()) {
      case RECENT ->
          new RecentNeighborSampler(rows, fanouts, windows, config.threads(), timeCursors);
      case UNIFORM ->
          new UniformNeighborSampler(
              rows, fanouts, windows, config.threads(), config.seed(), timeCursors);
    };
  }
}
