package dev.depbloom.api;

import dev.depbloom.data.FeatureMatrix;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * The events of a served stream: the first {@code baseCount} of the run's data (edge ids {@code
 * 0..baseCount-1}), then the observed ones, appended with the next edge ids. As a {@link
 * FeatureMatrix} it is the stream's edge features, by edge id: the base rows from the run's data,
 * the observed rows in chunks that never move.
 *
 * <p>Appended events are pending until {@link #publish()}. Threads: one writer appends, publishes
 * and discards (publishing under the serving lock); readers gather rows of published events only,
 * and see the chunk table through a volatile field.
 */
final class ServedEvents implements FeatureMatrix {
  private static final int CHUNK_ROWS = 4096;

  private final FeatureMatrix base; // [>= baseCount, dim]
  private final int baseCount;
  private final int dim;
  private volatile float[][] chunks = new float[0][]; // [chunk][CHUNK_ROWS * dim]
  private int[] src = new int[256]; // [appended] dense ids
  private int[] dst = new int[256];
  private double[] time = new double[256]; // [appended] run time
  private int count; // appended, pending included
  private int published;

  ServedEvents(FeatureMatrix base, int baseCount) {
    if (base.rows() < baseCount) {
      throw new IllegalArgumentException(
          base.rows() + " feature rows for " + baseCount + " events");
    }
    this.base = base;
    this.baseCount = baseCount;
    this.dim = base.dim();
  }

  /** Appends an event (pending) with its features ({@code null}: zeros); returns its edge id. */
  int append(int source, int destination, double runTime, float[] features) {
    if (count == src.length) {
      src = Arrays.copyOf(src, 2 * count);
      dst = Arrays.copyOf(dst, 2 * count);
      time = Arrays.copyOf(time, 2 * count);
    }
    src[count] = source;
    dst[count] = destination;
    time[count] = runTime;
    if (dim > 0) {
      int chunk = count / CHUNK_ROWS;
      float[][] table = chunks;
      if (chunk == table.length) {
        table = Arrays.copyOf(table, chunk + 1);
        table[chunk] = new float[CHUNK_ROWS * dim];
        chunks = table; // volatile: readers see the new table with its chunk
      }
      int at = (count % CHUNK_ROWS) * dim;
      if (features == null) {
        Arrays.fill(table[chunk], at, at + dim, 0f);
      } else {
        System.arraycopy(features, 0, table[chunk], at, dim);
      }
    }
    return baseCount + count++;
  }

  /** Makes the pending events published. */
  void publish() {
    published = count;
  }

  /** Drops the pending events. */
  void discardPending() {
    count = published;
  }

  /** The edge id the next appended event gets. */
  int nextEdgeId() {
    return baseCount + count;
  }

  int baseCount() {
    return baseCount;
  }

  /** Observed events published. */
  int observedCount() {
    return published;
  }

  int source(int observed) {
    return src[observed];
  }

  int destination(int observed) {
    return dst[observed];
  }

  double time(int observed) {
    return time[observed];
  }

  /** The features of observed event {@code observed}, a copy. */
  float[] features(int observed) {
    float[] row = new float[dim];
    copyRow(baseCount + (long) observed, row, 0);
    return row;
  }

  @Override
  public long rows() {
    return baseCount + (long) count;
  }

  @Override
  public int dim() {
    return dim;
  }

  @Override
  public void copyRow(long row, float[] out, int offset) {
    if (dim == 0) {
      return;
    }
    if (row < baseCount) {
      base.copyRow(row, out, offset);
      return;
    }
    int i = (int) (row - baseCount);
    System.arraycopy(chunks[i / CHUNK_ROWS], (i % CHUNK_ROWS) * dim, out, offset, dim);
  }

  @Override
  public void gather(int[] rowIds, int n, FloatBuffer out) {
    if (dim == 0) {
      return;
    }
    float[][] table = chunks;
    float[] row = null;
    for (int k = 0; k < n; k++) {
      int r = rowIds[k];
      if (r < baseCount) {
        row = row == null ? new float[dim] : row;
        base.copyRow(r, row, 0);
        out.put(row);
      } else {
        int i = r - baseCount;
        out.put(table[i / CHUNK_ROWS], (i % CHUNK_ROWS) * dim, dim);
      }
    }
  }
}
