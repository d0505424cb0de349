package dev.depbloom.data;

import java.nio.FloatBuffer;

/** Features held row-major in one Java array: {@code data[row * dim + j]}. */
public final class HeapFeatureMatrix implements FeatureMatrix {
  private final float[] data; // [rows * dim]
  private final int dim;
  private final int rows;

  public HeapFeatureMatrix(float[] data, int rows, int dim) {
    if ((long) rows * dim != data.length) {
      throw new IllegalArgumentException(
          "feature data has " + data.length + " values, expected " + rows + " x " + dim);
    }
    this.data = data;
    this.rows = rows;
    this.dim = dim;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public int dim() {
    return dim;
  }

  @Override
  public void copyRow(long row, float[] dst, int offset) {
    System.arraycopy(data, Math.toIntExact(row * dim), dst, offset, dim);
  }

  @Override
  public void gather(int[] rowIds, int count, FloatBuffer dst) {
    for (int i = 0; i < count; i++) {
      dst.put(data, rowIds[i] * dim, dim);
    }
  }

  /** The backing array, row-major; callers must not modify it. */
  public float[] values() {
    return data;
  }
}
