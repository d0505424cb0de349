package dev.depbloom.api;

import dev.depbloom.data.FeatureMatrix;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * Node features of a served stream: the run's rows, then zero rows for the nodes observed events
 * add (a new node has no features, as a node without them in the data).
 */
final class PaddedFeatureMatrix implements FeatureMatrix {
  private final FeatureMatrix base;
  private final long rows;

  PaddedFeatureMatrix(FeatureMatrix base, long rows) {
    this.base = base;
    this.rows = Math.max(rows, base.rows());
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public int dim() {
    return base.dim();
  }

  @Override
  public void copyRow(long row, float[] out, int offset) {
    if (row < base.rows()) {
      base.copyRow(row, out, offset);
    } else {
      Arrays.fill(out, offset, offset + dim(), 0f);
    }
  }

  @Override
  public void gather(int[] rowIds, int count, FloatBuffer out) {
    float[] row = new float[dim()];
    for (int i = 0; i < count; i++) {
      copyRow(rowIds[i], row, 0);
      out.put(row);
    }
  }
}
