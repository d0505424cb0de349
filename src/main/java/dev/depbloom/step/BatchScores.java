package dev.depbloom.step;

/**
 * Predicted probabilities of one evaluated batch: {@code positive [B]}, {@code negative [k B]} in
 * the negative-major layout of the batch roots.
 */
public record BatchScores(float[] positive, float[] negative) {
  /** Scores of the first negative of every event: {@code [B]}. */
  public float[] firstNegative() {
    return java.util.Arrays.copyOf(negative, positive.length);
  }
}
