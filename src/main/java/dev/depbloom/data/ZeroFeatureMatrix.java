package dev.depbloom.data;

import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * All-zero features of a given width, without storage. Stands in for features a data set lacks
 * (e.g. WIKI's 172-dim edge features, as the published experiments' width). Gathers write real
 * zeros, so everything downstream does the same work as with real features.
 */
public final class ZeroFeatureMatrix implements FeatureMatrix {
  private final long rows;
  private final int dim;

  public ZeroFeatureMatrix(long rows, int dim) {
    if (rows < 0 || dim < 0) {
      throw new IllegalArgumentException("negative shape " + rows + " x " + dim);
    }
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
    Arrays.fill(dst, offset, offset + dim, 0f);
  }

  @Override
  public void gather(int[] rowIds, int count, FloatBuffer dst) {
    for (long i = (long) count * dim; i > 0; i--) {
      dst.put(0f);
    }
  }
}
