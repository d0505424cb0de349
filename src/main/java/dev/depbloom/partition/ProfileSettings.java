package dev.depbloom.partition;

import java.util.List;

/**
 * What a {@link DependencyProfile} measures: {@code devices} G, micro-batch size B, the candidate
 * window sizes and the read rule the recommendation judges lost dependencies by.
 */
public record ProfileSettings(
    int devices, int batchSize, List<Integer> windows, ReadRule readRule) {
  /** Candidate windows: 4,000 / 12,000 / 40,000 events (12,000 is the paper's Fig. 5a). */
  public static final List<Integer> DEFAULT_WINDOWS = List.of(4_000, 12_000, 40_000);

  public ProfileSettings {
    if (devices < 1) {
      throw new IllegalArgumentException("devices must be at least 1, got " + devices);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
    }
    windows = List.copyOf(windows);
    if (windows.isEmpty()) {
      throw new IllegalArgumentException("at least one candidate window size is needed");
    }
    for (int w : windows) {
      if (w < 1) {
        throw new IllegalArgumentException("window sizes must be positive, got " + w);
      }
    }
  }

  /**
   * The default windows, lost dependencies judged by {@link ReadRule#OWN_WRITES}: the read rule the
   * {@code depbloom} schedule implements (a chain's memory view holds all of its own writes).
   */
  public static ProfileSettings of(int devices, int batchSize) {
    return new ProfileSettings(devices, batchSize, DEFAULT_WINDOWS, ReadRule.OWN_WRITES);
  }

  /** Chain counts P that divide G, ascending. */
  public int[] chainCounts() {
    return java.util.stream.IntStream.rangeClosed(1, devices)
        .filter(p -> devices % p == 0)
        .toArray();
  }

  /** The smallest useful window: every chain gets at least one large batch, {@code G * B}. */
  public long minimumWindow() {
    return (long) devices * batchSize;
  }
}
