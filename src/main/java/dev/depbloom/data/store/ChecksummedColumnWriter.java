package dev.depbloom.data.store;

import dev.depbloom.data.FeatureMatrix;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes one column file as little-endian values through a direct buffer, computing the CRC32C of
 * the bytes as they go out. {@link #finish()} flushes, syncs the file to disk and returns the
 * checksum.
 */
final class ChecksummedColumnWriter implements Closeable {
  private static final int BUFFER_BYTES = 1 << 20;

  private final FileChannel channel;
  private final ByteBuffer buffer =
      ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();

  ChecksummedColumnWriter(Path file) throws IOException {
    channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  void putInts(int[] values) throws IOException {
    for (int off = 0; off < values.length; ) {
      int n = Math.min(values.length - off, room(Integer.BYTES));
      buffer.asIntBuffer().put(values, off, n);
      advance(n * Integer.BYTES);
      off += n;
    }
  }

  void putLongs(long[] values) throws IOException {
    for (int off = 0; off < values.length; ) {
      int n = Math.min(values.length - off, room(Long.BYTES));
      buffer.asLongBuffer().put(values, off, n);
      advance(n * Long.BYTES);
      off += n;
    }
  }

  void putDoubles(double[] values) throws IOException {
    for (int off = 0; off < values.length; ) {
      int n = Math.min(values.length - off, room(Double.BYTES));
      buffer.asDoubleBuffer().put(values, off, n);
      advance(n * Double.BYTES);
      off += n;
    }
  }

  void putBytes(byte[] values) throws IOException {
    for (int off = 0; off < values.length; ) {
      int n = Math.min(values.length - off, room(1));
      buffer.put(values, off, n);
      off += n;
    }
  }

  void putFloats(float[] values) throws IOException {
    for (int off = 0; off < values.length; ) {
      int n = Math.min(values.length - off, room(Float.BYTES));
      buffer.asFloatBuffer().put(values, off, n);
      advance(n * Float.BYTES);
      off += n;
    }
  }

  /** Every row of {@code features}, row-major, gathered a buffer-full of rows at a time. */
  void putRows(FeatureMatrix features) throws IOException {
    int dim = features.dim();
    long rowBytes = (long) dim * Float.BYTES;
    int rows = Math.toIntExact(features.rows());
    if (dim == 0) {
      return;
    }
    if (rowBytes > BUFFER_BYTES) {
      float[] row = new float[dim];
      for (int r = 0; r < rows; r++) {
        features.copyRow(r, row, 0);
        putFloats(row);
      }
      return;
    }
    int[] rowIds = new int[(int) (BUFFER_BYTES / rowBytes)];
    for (int first = 0; first < rows; ) {
      int n = Math.min(rows - first, room((int) rowBytes));
      for (int i = 0; i < n; i++) {
        rowIds[i] = first + i;
      }
      features.gather(rowIds, n, buffer.asFloatBuffer());
      advance((int) (n * rowBytes));
      first += n;
    }
  }

  /**
   * Flushes what is buffered, forces the file to disk and returns the CRC32C of all bytes written,
   * as 8 lower-case hex digits.
   */
  String finish() throws IOException {
    flush();
    channel.force(true);
    return String.format("%08x", crc.getValue());
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** Elements of {@code elementBytes} that fit in the buffer, after flushing it if it is full. */
  private int room(int elementBytes) throws IOException {
    if (buffer.remaining() < elementBytes) {
      flush();
    }
    return buffer.remaining() / elementBytes;
  }

  private void advance(int bytes) {
    buffer.position(buffer.position() + bytes);
  }

  private void flush() throws IOException {
    buffer.flip();
    crc.update(buffer);
    buffer.flip();
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    buffer.clear();
  }
}
