package dev.depbloom.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The learning rates every row of a converged comparison chooses from (issue 31): the configured
 * rate times each multiplier of one stated grid, a multiplier being a number, {@code G} (the row's
 * logical devices: DistTGL's linear scaling) or {@code sqrtG}. The same grid for every row; each
 * row takes the rate that validates best. On one device every multiplier is 1, so {@code
 * sequential} has one rate.
 */
public record LearningRateGrid(List<String> multipliers) {
  /** {@code lr x {1, sqrt(G), G}}. */
  public static final LearningRateGrid DEFAULT = new LearningRateGrid(List.of("1", "sqrtG", "G"));

  public LearningRateGrid {
    multipliers = List.copyOf(multipliers);
    if (multipliers.isEmpty()) {
      throw new IllegalArgumentException("a learning-rate grid needs at least one multiplier");
    }
    for (String m : multipliers) {
      value(m, 1);
    }
  }

  /** The grid of a command-line list such as {@code 1,sqrtG,G} or {@code 1,2,4}. */
  public static LearningRateGrid parse(List<String> spec) {
    return new LearningRateGrid(spec.stream().map(String::trim).toList());
  }

  /** The distinct multipliers for {@code devices} G, ascending. */
  public List<Double> multipliers(int devices) {
    List<Double> out = new ArrayList<>();
    for (String m : multipliers) {
      double v = value(m, devices);
      if (out.stream().noneMatch(x -> Math.abs(x - v) < 1e-12)) {
        out.add(v);
      }
    }
    out.sort(Double::compare);
    return out;
  }

  private static double value(String m, int devices) {
    switch (m) {
      case "G":
        return devices;
      case "sqrtG":
        return Math.sqrt(devices);
      default:
        try {
          double v = Double.parseDouble(m);
          if (v > 0 && Double.isFinite(v)) {
            return v;
          }
        } catch (NumberFormatException e) {
          // falls through to the error
        }
        throw new IllegalArgumentException(
            "learning-rate multiplier '" + m + "': expected a positive number, G or sqrtG");
    }
  }

  @Override
  public String toString() {
    return "lr x {"
        + String.join(", ", multipliers.stream().map(m -> m.replace("sqrtG", "sqrt(G)")).toList())
        + "}";
  }
}
