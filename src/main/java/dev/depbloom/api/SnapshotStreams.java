package dev.depbloom.api;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * The byte streams of {@link SnapshotFile}: little-endian output and input through one buffer each,
 * with a running CRC32C of the contents.
 */
final class SnapshotStreams {
  private SnapshotStreams() {}

  /** Copies {@code m} values starting at index {@code i} between an array and the buffer. */
  @FunctionalInterface
  interface Chunk {
    void copy(int i, int m);
  }

  /** Little-endian output through one buffer, with a running CRC32C of what is written. */
  static final class Out implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long bytes;

    Out(Path file) throws IOException {
      channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Makes room for at least {@code n} bytes (writing the buffer out if needed). */
    private void room(int n) throws IOException {
      if (buf.remaining() < n) {
        flush(true);
      }
    }

    private void flush(boolean counted) throws IOException {
      buf.flip();
      if (counted) {
        crc.update(buf.duplicate());
      }
      bytes += buf.remaining();
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      buf.clear();
    }

    void string(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      ints(b.length);
      room(b.length);
      buf.put(b);
    }

    void ints(int... v) throws IOException {
      chunks(v.length, Integer.BYTES, (i, m) -> buf.asIntBuffer().put(v, i, m));
    }

    void longs(long... v) throws IOException {
      chunks(v.length, Long.BYTES, (i, m) -> buf.asLongBuffer().put(v, i, m));
    }

    void doubles(double... v) throws IOException {
      chunks(v.length, Double.BYTES, (i, m) -> buf.asDoubleBuffer().put(v, i, m));
    }

    void floats(float[] v) throws IOException {
      chunks(v.length, Float.BYTES, (i, m) -> buf.asFloatBuffer().put(v, i, m));
    }

    /**
     * Writes {@code n} values of {@code width} bytes, as many at a time as the buffer holds: {@code
     * put(i, m)} copies values {@code i .. i + m} into the buffer at its position.
     */
    private void chunks(int n, int width, Chunk put) throws IOException {
      for (int i = 0; i < n; ) {
        room(width);
        int m = Math.min(n - i, buf.remaining() / width);
        put.copy(i, m);
        buf.position(buf.position() + width * m);
        i += m;
      }
    }

    /** Writes out the rest, then the CRC32C of everything before it; returns the file's size. */
    long finish() throws IOException {
      flush(true);
      buf.putLong(crc.getValue());
      flush(false);
      channel.force(true);
      return bytes;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /**
   * Little-endian input through one buffer; the CRC32C of the file's contents (all but the last 8
   * bytes) is computed as they are read.
   */
  static final class In implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private final long covered; // bytes under the checksum
    private long read; // bytes read from the file so far

    In(Path file) throws IOException {
      channel = FileChannel.open(file, StandardOpenOption.READ);
      covered = channel.size() - 8;
      if (covered < 0) {
        throw new IOException("the file is too short");
      }
      buf.limit(0);
    }

    /** Ensures at least {@code n} bytes are buffered. */
    private void need(int n) throws IOException {
      if (buf.remaining() >= n) {
        return;
      }
      buf.compact();
      while (buf.position() < n) {
        int from = buf.position();
        int got = channel.read(buf);
        if (got < 0) {
          throw new IOException("the file ends early");
        }
        long counted = Math.max(0, Math.min(got, covered - read));
        if (counted > 0) {
          ByteBuffer d = buf.duplicate();
          d.position(from).limit(from + (int) counted);
          crc.update(d);
        }
        read += got;
      }
      buf.flip();
    }

    String string() throws IOException {
      int n = ints(1)[0];
      if (n < 0 || n > 4096) {
        throw new IOException("bad string length " + n);
      }
      need(n);
      byte[] b = new byte[n];
      buf.get(b);
      return new String(b, StandardCharsets.UTF_8);
    }

    int[] ints(int n) throws IOException {
      int[] out = new int[count(n)];
      chunks(n, Integer.BYTES, (i, m) -> buf.asIntBuffer().get(out, i, m));
      return out;
    }

    long[] longs(int n) throws IOException {
      long[] out = new long[count(n)];
      chunks(n, Long.BYTES, (i, m) -> buf.asLongBuffer().get(out, i, m));
      return out;
    }

    double[] doubles(int n) throws IOException {
      double[] out = new double[count(n)];
      chunks(n, Double.BYTES, (i, m) -> buf.asDoubleBuffer().get(out, i, m));
      return out;
    }

    float[] floats(int n) throws IOException {
      float[] out = new float[count(n)];
      chunks(n, Float.BYTES, (i, m) -> buf.asFloatBuffer().get(out, i, m));
      return out;
    }

    /**
     * Reads {@code n} values of {@code width} bytes, as many at a time as are buffered: {@code
     * get(i, m)} copies values {@code i .. i + m} out of the buffer at its position.
     */
    private void chunks(int n, int width, Chunk get) throws IOException {
      for (int i = 0; i < n; ) {
        need(width);
        int m = Math.min(n - i, buf.remaining() / width);
        get.copy(i, m);
        buf.position(buf.position() + width * m);
        i += m;
      }
    }

    /** A count read from the file, checked against what the file can hold. */
    private int count(int n) throws IOException {
      if (n < 0 || n > covered) {
        throw new IOException("bad count " + n);
      }
      return n;
    }

    /** Checks the trailing CRC32C against the contents read, which must be all of them. */
    void checkCrc() throws IOException {
      need(8);
      long position = read - buf.remaining();
      if (position != covered || buf.getLong() != crc.getValue()) {
        throw new IOException("checksum mismatch");
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
