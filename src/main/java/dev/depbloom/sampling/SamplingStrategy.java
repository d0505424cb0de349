package dev.depbloom.sampling;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a root's neighbors are chosen among its events before the query time. */
public enum SamplingStrategy {
  /** The last n events: {@link RecentNeighborSampler}. */
  RECENT,
  /** n uniform draws with replacement: {@link UniformNeighborSampler}. */
  UNIFORM;

  /** The name used in configs and on the command line: {@code recent}, {@code uniform}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The strategy of a config name; the message lists the names expected. */
  public static SamplingStrategy fromConfigName(String name) {
    for (SamplingStrategy s : values()) {
      if (s.configName().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown sampling strategy '"
            + name
            + "', expected one of "
            + Arrays.stream(values())
                .map(SamplingStrategy::configName)
                .collect(Collectors.joining(", ")));
  }
}
