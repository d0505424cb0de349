package dev.depbloom.data.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFeatureMatrixTest {
  @TempDir Path dir;

  private static HeapFeatureMatrix heap(int rows, int dim) {
    float[] values = new float[rows * dim];
    for (int i = 0; i < values.length; i++) {
      values[i] = i * 1.5f - 7f;
    }
    return new HeapFeatureMatrix(values, rows, dim);
  }

  private Path fileOf(HeapFeatureMatrix m) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(m.values().length * 4).order(ByteOrder.LITTLE_ENDIAN);
    bytes.asFloatBuffer().put(m.values());
    return Files.write(dir.resolve("features.f32"), bytes.array());
  }

  @Test
  void rowsEqualHeapRowsAcrossChunkBoundaries() throws IOException {
    HeapFeatureMatrix heap = heap(10, 3);
    // 3 rows of 12 bytes per chunk: chunks hold rows 0-2, 3-5, 6-8, 9.
    MappedFeatureMatrix mapped = MappedFeatureMatrix.open(fileOf(heap), 10, 3, 36);
    assertEquals(10, mapped.rows());
    assertEquals(3, mapped.dim());
    assertArrayEquals(
        EventStoreRoundTripTest.allRows(heap), EventStoreRoundTripTest.allRows(mapped));
  }

  @Test
  void gatherEqualsHeapGatherAndAdvancesThePosition() throws IOException {
    HeapFeatureMatrix heap = heap(10, 3);
    MappedFeatureMatrix mapped = MappedFeatureMatrix.open(fileOf(heap), 10, 3, 36);
    int[] rowIds = {9, 0, 3, 2, 5, 8, 8, 6, -1};
    FloatBuffer expected = FloatBuffer.allocate(30);
    FloatBuffer actual =
        ByteBuffer.allocateDirect(120).order(ByteOrder.nativeOrder()).asFloatBuffer();
    expected.put(-1f);
    actual.put(-1f);
    heap.gather(rowIds, 8, expected);
    mapped.gather(rowIds, 8, actual);
    assertEquals(25, actual.position());
    float[] a = new float[25];
    float[] e = new float[25];
    expected.flip().get(e);
    actual.flip().get(a);
    assertArrayEquals(e, a);
    assertEquals(9 * 3 * 1.5f - 7f, a[1]);
  }

  @Test
  void rowOutsideTheMatrixIsRejected() throws IOException {
    MappedFeatureMatrix mapped = MappedFeatureMatrix.open(fileOf(heap(4, 2)), 4, 2);
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> mapped.gather(new int[] {4}, 1, FloatBuffer.allocate(2)));
  }

  @Test
  void fileOfAnotherSizeIsRejectedNamingIt() throws IOException {
    Path file = fileOf(heap(4, 2));
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> MappedFeatureMatrix.open(file, 5, 2));
    assertEquals(
        file + ": has 32 bytes, expected 40 for float32 [5, 2] (truncated)", e.getMessage());
  }

  @Test
  void rowsBeyondTwoGibibytesAreRead() throws IOException {
    int dim = 1000; // 4000-byte rows; a 1 GiB chunk holds 268,435 of them
    long rows = 600_000; // 2.4 GB, a sparse file: only the rows written below take disk space
    long[] probes = {0, 268_434, 268_435, 536_870, 599_999}; // 536,870 spans the 2 GiB offset
    Path file = dir.resolve("large.f32");
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(rows * dim * 4);
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      for (long row : probes) {
        ByteBuffer values = ByteBuffer.allocate(dim * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int j = 0; j < dim; j++) {
          values.putFloat(row + j * 0.001f);
        }
        ch.write(values.flip(), row * dim * 4);
      }
    }
    MappedFeatureMatrix mapped = MappedFeatureMatrix.open(file, rows, dim);
    float[] row = new float[dim];
    for (long r : probes) {
      mapped.copyRow(r, row, 0);
      assertEquals(r + 0f, row[0], "row " + r);
      assertEquals(r + 999 * 0.001f, row[dim - 1], "row " + r);
    }
    FloatBuffer gathered = FloatBuffer.allocate(2 * dim);
    mapped.gather(new int[] {599_999, 536_870}, 2, gathered);
    assertEquals(599_999f, gathered.get(0));
    assertEquals(536_870f + 999 * 0.001f, gathered.get(2 * dim - 1));
    mapped.copyRow(1, row, 0);
    assertEquals(0f, row[500]);
  }
}
