package dev.depbloom.data.load;

import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.InputException;

/** Copies chosen rows of a feature matrix, in the order they are taken, into a new heap matrix. */
final class FeatureRowGather {
  private final FeatureMatrix table;
  private final float[] out; // [count * dim]
  private final int dim;
  private final int count;
  private int taken;

  FeatureRowGather(FeatureMatrix table, int count) {
    this.table = table;
    this.dim = table.dim();
    this.count = count;
    if ((long) count * dim > EventTableBuilder.MAX_EVENTS) {
      throw new InputException(
          "gathering "
              + count
              + " feature rows of width "
              + dim
              + " exceeds the "
              + EventTableBuilder.MAX_EVENTS
              + " values one Java array holds");
    }
    this.out = new float[count * dim];
  }

  void take(long row) {
    if (table instanceof HeapFeatureMatrix heap) {
      System.arraycopy(heap.values(), Math.toIntExact(row * dim), out, taken * dim, dim);
    } else {
      table.copyRow(row, out, taken * dim);
    }
    taken++;
  }

  HeapFeatureMatrix result() {
    if (taken != count) {
      throw new IllegalStateException("took " + taken + " of " + count + " rows");
    }
    return new HeapFeatureMatrix(out, count, dim);
  }
}
