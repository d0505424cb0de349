package dev.depbloom.sampling;

import java.util.List;

/**
 * The {@code sampling} section of a run's configuration, validated: what {@link
 * NeighborSamplerFactory} needs to build a sampler. Field names are the config keys.
 *
 * @param strategy {@code recent} or {@code uniform}
 * @param fanouts samples per root, one entry per layer, each at least 1 ({@code [10]} for TGN,
 *     {@code [10, 10]} for TGAT)
 * @param history snapshots (DySAT: 3); 1 without snapshots
 * @param duration snapshot window length in the stream's time unit; 0 without snapshots (see {@link
 *     SnapshotWindows} for the exact windows)
 * @param threads threads that sample, at least 1
 * @param seed seed of the sampler's random streams (ignored by {@code recent})
 */
public record SamplerConfig(
    SamplingStrategy strategy,
    List<Integer> fanouts,
    int history,
    double duration,
    int threads,
    long seed) {
  public static final int DEFAULT_HISTORY = 1;
  public static final double DEFAULT_DURATION = 0;
  public static final int DEFAULT_THREADS = 1;
  public static final long DEFAULT_SEED = 0;

  public SamplerConfig {
    if (strategy == null) {
      throw new IllegalArgumentException("sampling strategy is missing");
    }
    fanouts = List.copyOf(fanouts);
    if (fanouts.isEmpty()) {
      throw new IllegalArgumentException("fanouts must list at least one layer");
    }
    for (int l = 0; l < fanouts.size(); l++) {
      if (fanouts.get(l) < 1) {
        throw new IllegalArgumentException(
            "fanouts[" + l + "] must be at least 1, got " + fanouts.get(l));
      }
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    new SnapshotWindows(history, duration); // validates history and duration together
  }

  /** A config with the defaults: no snapshots, one thread, seed 0. */
  public static SamplerConfig of(SamplingStrategy strategy, List<Integer> fanouts) {
    return new SamplerConfig(
        strategy, fanouts, DEFAULT_HISTORY, DEFAULT_DURATION, DEFAULT_THREADS, DEFAULT_SEED);
  }

  public SamplerConfig withThreads(int value) {
    return new SamplerConfig(strategy, fanouts, history, duration, value, seed);
  }

  public SamplerConfig withSeed(long value) {
    return new SamplerConfig(strategy, fanouts, history, duration, threads, value);
  }

  public SamplerConfig withSnapshots(int historyValue, double durationValue) {
    return new SamplerConfig(strategy, fanouts, historyValue, durationValue, threads, seed);
  }

  public SnapshotWindows windows() {
    return new SnapshotWindows(history, duration);
  }

  /** The fanouts as the primitive array the samplers take. */
  public int[] fanoutArray() {
    return fanouts.stream().mapToInt(Integer::intValue).toArray();
  }
}
