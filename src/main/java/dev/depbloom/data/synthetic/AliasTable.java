package dev.depbloom.data.synthetic;

import java.util.SplittableRandom;

/**
 * Walker's alias method, built with Vose's stable variant: draws an index with probability
 * proportional to its weight in O(1). One table holds many independent segments (e.g. one per
 * community) over consecutive ranges of one weight array, so a million small distributions cost
 * three flat arrays.
 *
 * <p>Reference: M. D. Vose, "A linear algorithm for generating random numbers with a given
 * distribution", IEEE TSE 17(9), 1991.
 */
final class AliasTable {
  private final double[] threshold; // [size]: keep column j when u < threshold[j]
  private final int[] alias; // [size]: the other index of column j
  private final int[] segmentStart; // [segments + 1]

  /**
   * A table over {@code weights}, segment {@code s} covering {@code [segmentStart[s],
   * segmentStart[s + 1])}. Weights must be finite and non-negative; a segment whose weights sum to
   * 0 is sampled uniformly.
   */
  AliasTable(double[] weights, int[] segmentStart) {
    this.segmentStart = segmentStart.clone();
    this.threshold = new double[weights.length];
    this.alias = new int[weights.length];
    int[] small = new int[weights.length];
    int[] large = new int[weights.length];
    double[] scaled = new double[weights.length];
    for (int s = 0; s + 1 < segmentStart.length; s++) {
      build(weights, segmentStart[s], segmentStart[s + 1], scaled, small, large);
    }
  }

  /** A table of one segment over all of {@code weights}. */
  static AliasTable of(double[] weights) {
    return new AliasTable(weights, new int[] {0, weights.length});
  }

  private void build(
      double[] weights, int from, int to, double[] scaled, int[] small, int[] large) {
    double sum = 0;
    for (int j = from; j < to; j++) {
      if (!(weights[j] >= 0) || Double.isInfinite(weights[j])) {
        throw new IllegalArgumentException("weight " + j + " is " + weights[j]);
      }
      sum += weights[j];
    }
    int smallCount = 0;
    int largeCount = 0;
    for (int j = from; j < to; j++) {
      scaled[j] = sum > 0 ? weights[j] * (to - from) / sum : 0;
      alias[j] = j;
      if (scaled[j] < 1) {
        small[smallCount++] = j;
      } else {
        large[largeCount++] = j;
      }
    }
    while (smallCount > 0 && largeCount > 0) {
      int l = small[--smallCount];
      int g = large[--largeCount];
      threshold[l] = scaled[l];
      alias[l] = g;
      scaled[g] = (scaled[g] + scaled[l]) - 1;
      if (scaled[g] < 1) {
        small[smallCount++] = g;
      } else {
        large[largeCount++] = g;
      }
    }
    // What is left has scaled weight 1 up to rounding: its column is all its own.
    while (largeCount > 0) {
      threshold[large[--largeCount]] = 1;
    }
    while (smallCount > 0) {
      threshold[small[--smallCount]] = sum > 0 ? 1 : 0;
    }
  }

  int segments() {
    return segmentStart.length - 1;
  }

  int segmentSize(int segment) {
    return segmentStart[segment + 1] - segmentStart[segment];
  }

  /** An index in {@code [segmentStart[segment], segmentStart[segment + 1])}, by weight. */
  int sample(int segment, SplittableRandom random) {
    int from = segmentStart[segment];
    int j = from + random.nextInt(segmentStart[segment + 1] - from);
    return random.nextDouble() < threshold[j] ? j : alias[j];
  }

  /** The probability that {@link #sample} returns {@code index}: what the table encodes. */
  double probability(int segment, int index) {
    int from = segmentStart[segment];
    int to = segmentStart[segment + 1];
    double p = 0;
    for (int j = from; j < to; j++) {
      p += j == index ? threshold[j] : 0;
      p += alias[j] == index ? 1 - threshold[j] : 0;
    }
    return p / (to - from);
  }
}
