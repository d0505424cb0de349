package dev.depbloom.step;

import java.util.Arrays;

/**
 * Predicted probabilities of one evaluated batch: {@code positive [B]}, {@code negative [k B]} in
 * the negative-major layout of the batch roots.
 */
public record BatchScores(float[] positive, float[] negative) {
  /** Scores of the first negative of every event: {@code [B]}. */
  public float[] firstNegative() {
    return Arrays.copyOf(negative, positive.length);
  }
}
