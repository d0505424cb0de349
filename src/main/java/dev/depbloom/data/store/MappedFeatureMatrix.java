package dev.depbloom.data.store;

import dev.depbloom.data.FeatureMatrix;
import java.io.IOException;
import java.nio.BufferOverflowException;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Features read straight from a memory-mapped file of little-endian float32 rows, {@code [rows,
 * dim]} row-major, so a matrix larger than the Java heap (or than the 2 GiB of one mapping) costs
 * only page cache. The file is mapped in chunks of whole rows, so no row straddles two mappings and
 * every row is one bulk copy.
 *
 * <p>Reads use absolute positions only, so one matrix may be gathered from by many threads. The
 * mapping lives as long as the matrix is reachable (the JVM unmaps it when it is collected).
 */
public final class MappedFeatureMatrix implements FeatureMatrix {
  private final Path file;
  private final long rows;
  private final int dim;
  private final long rowsPerChunk;
  private final FloatBuffer[] chunks; // each [rowsPerChunk * dim], the last one shorter

  MappedFeatureMatrix(MappedColumn column, long rows, int dim) {
    if (dim <= 0 || rows < 0) {
      throw new IllegalArgumentException("mapped features need dim >= 1, got " + dim);
    }
    this.file = column.file();
    this.rows = rows;
    this.dim = dim;
    this.rowsPerChunk = column.chunkBytes() / ((long) dim * Float.BYTES);
    this.chunks = new FloatBuffer[column.chunkCount()];
    for (int c = 0; c < chunks.length; c++) {
      chunks[c] = column.chunk(c).asFloatBuffer();
    }
  }

  /**
   * Maps {@code file}, which must hold exactly {@code rows * dim} little-endian float32 values.
   *
   * @throws dev.depbloom.data.DataFormatException naming the file when it is missing or has another
   *     size
   */
  public static MappedFeatureMatrix open(Path file, long rows, int dim) throws IOException {
    return open(file, rows, dim, MappedColumn.alignedChunkBytes((long) dim * Float.BYTES));
  }

  /** As {@link #open(Path, long, int)} with chunks of {@code chunkBytes}, a multiple of a row. */
  static MappedFeatureMatrix open(Path file, long rows, int dim, long chunkBytes)
      throws IOException {
    long rowBytes = (long) dim * Float.BYTES;
    if (dim <= 0 || chunkBytes % rowBytes != 0) {
      throw new IllegalArgumentException(
          "chunks of " + chunkBytes + " bytes do not hold whole rows of dim " + dim);
    }
    long bytes = Math.multiplyExact(rows, rowBytes);
    String shape = "float32 [" + rows + ", " + dim + "]";
    return new MappedFeatureMatrix(MappedColumn.map(file, bytes, chunkBytes, shape), rows, dim);
  }

  /** The mapped file. */
  public Path file() {
    return file;
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
    Objects.checkIndex(row, rows);
    int c = (int) (row / rowsPerChunk);
    chunks[c].get((int) ((row - c * rowsPerChunk) * dim), dst, offset, dim);
  }

  @Override
  public void gather(int[] rowIds, int count, FloatBuffer dst) {
    if (dst.remaining() < (long) count * dim) {
      throw new BufferOverflowException();
    }
    int at = dst.position();
    for (int i = 0; i < count; i++) {
      long row = Objects.checkIndex(rowIds[i], rows);
      int c = (int) (row / rowsPerChunk);
      dst.put(at, chunks[c], (int) ((row - c * rowsPerChunk) * dim), dim);
      at += dim;
    }
    dst.position(at);
  }
}
