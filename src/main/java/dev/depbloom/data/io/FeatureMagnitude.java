package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The largest feature magnitude the models can compute with. A feature value is multiplied and
 * squared in float32 (layer norms, attention scores, the loss): a value whose square is not a
 * finite float overflows, every score then saturates to the same value, and a run trains on nothing
 * while reporting AP 0.5 (e.g. unscaled amounts of a transaction log near 3e38). Such values are
 * refused at load, with the advice to scale the column.
 */
public final class FeatureMagnitude {
  /** The square root of the largest float, about 1.84e19. */
  public static final double LIMIT = Math.sqrt(Float.MAX_VALUE);

  private FeatureMagnitude() {}

  /** Whether {@code v} is too large to compute with. */
  public static boolean tooLarge(double v) {
    return Math.abs(v) > LIMIT;
  }

  /** What is wrong with the value written {@code shown}, for an error that names where it is. */
  public static String problem(String shown) {
    return String.format(
        Locale.ROOT,
        "the feature value %s overflows float32 arithmetic (its square exceeds %.3g); scale the"
            + " column (e.g. divide it by a constant, take its logarithm or standardise it)",
        shown,
        Float.MAX_VALUE);
  }

  /**
   * {@code features}, read from {@code file}, unless a value is too large to compute with: then an
   * error naming the row and the column.
   */
  public static HeapFeatureMatrix checked(HeapFeatureMatrix features, Path file) {
    float[] values = features.values();
    int cols = features.dim();
    for (int i = 0; i < values.length; i++) {
      if (tooLarge(values[i])) {
        throw new DataFormatException(
            file,
            0,
            "row " + i / cols + ", column " + i % cols + ": " + problem(Float.toString(values[i])));
      }
    }
    return features;
  }
}
