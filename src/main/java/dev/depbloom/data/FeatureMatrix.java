package dev.depbloom.data;

import java.nio.FloatBuffer;

/**
 * A read-only matrix of float features, one row per edge or node: {@code [rows, dim]}. Storage may
 * be on the heap, memory-mapped, or implicit; callers only gather rows, so a 10^8-row matrix never
 * has to fit in the Java heap.
 */
public interface FeatureMatrix {
  long rows();

  int dim();

  /** Copies row {@code row} into {@code dst[offset .. offset + dim)}. */
  void copyRow(long row, float[] dst, int offset);

  /**
   * Writes rows {@code rowIds[0 .. count)} one after another into {@code dst} at its position,
   * which advances by {@code count * dim}. This is how features reach a tensor without per-element
   * copies.
   */
  default void gather(int[] rowIds, int count, FloatBuffer dst) {
    float[] row = new float[dim()];
    for (int i = 0; i < count; i++) {
      copyRow(rowIds[i], row, 0);
      dst.put(row);
    }
  }

  /** A matrix with no columns, for data without features. */
  static FeatureMatrix empty(long rows) {
    return new ZeroFeatureMatrix(rows, 0);
  }
}
