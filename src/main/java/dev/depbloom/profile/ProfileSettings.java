package dev.depbloom.profile;

import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.TopologyPartitioner;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * What a {@link DependencyProfile} measures: {@code devices} G, micro-batch size B, the candidate
 * window sizes and the read rule the recommendation judges lost dependencies by.
 */
public record ProfileSettings(
    int devices, int batchSize, List<Integer> windows, ReadRule readRule) {
  /**
   * Candidate window sizes before alignment: 4,000 / 12,000 / 40,000 events (12,000 is the paper's
   * Fig. 5a); {@link #defaultWindows} aligns them to the devices and batch size, and only the
   * aligned ones are candidates.
   */
  private static final List<Integer> WINDOW_TARGETS = List.of(4_000, 12_000, 40_000);

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
    return new ProfileSettings(
        devices, batchSize, defaultWindows(devices, batchSize), ReadRule.OWN_WRITES);
  }

  /**
   * {@link #WINDOW_TARGETS}, each moved to the nearest multiple of {@code G * B} (at least one):
   * with chains of exactly {@code W / P} events ({@link TopologyPartitioner}, {@link
   * ContiguousPartitioner}), every chain's window share is then whole large batches of {@code k *
   * B}, and no round of a window is cut short. Duplicates are dropped.
   */
  public static List<Integer> defaultWindows(int devices, int batchSize) {
    long unit = (long) devices * batchSize;
    Set<Integer> out = new LinkedHashSet<>();
    for (int w : WINDOW_TARGETS) {
      long multiples = Math.max(1, Math.round((double) w / unit));
      out.add((int) Math.min(Integer.MAX_VALUE, multiples * unit));
    }
    return List.copyOf(out);
  }

  /** Chain counts P that divide G, ascending. */
  public int[] chainCounts() {
    return IntStream.rangeClosed(1, devices).filter(p -> devices % p == 0).toArray();
  }

  /**
   * The smallest useful window, {@code 2 G B}: every chain gets at least two large batches. A
   * window of one round merges the chains' views every round, which is the per-round
   * synchronisation temporal windows exist to avoid (and a cost the lost-dependency score does not
   * count: it only sees the dependencies such short windows keep).
   */
  public long minimumWindow() {
    return 2L * devices * batchSize;
  }
}
