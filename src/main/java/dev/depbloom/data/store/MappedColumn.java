package dev.depbloom.data.store;

import dev.depbloom.data.DataFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A column file mapped read-only in chunks of at most {@link #MAX_CHUNK_BYTES} (one mapping cannot
 * exceed 2 GiB). Chunk sizes are a multiple of an alignment, the element or row size, so no element
 * or row straddles two chunks. The mapping stays valid after the file channel is closed.
 */
final class MappedColumn {
  static final long MAX_CHUNK_BYTES = 1L << 30;

  private final Path file;
  private final long bytes;
  private final long chunkBytes;
  private final MappedByteBuffer[] chunks;

  private MappedColumn(Path file, long bytes, long chunkBytes, MappedByteBuffer[] chunks) {
    this.file = file;
    this.bytes = bytes;
    this.chunkBytes = chunkBytes;
    this.chunks = chunks;
  }

  /** The largest chunk size that is a multiple of {@code alignBytes} and at most 1 GiB. */
  static long alignedChunkBytes(long alignBytes) {
    if (alignBytes <= 0 || alignBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("cannot map elements of " + alignBytes + " bytes");
    }
    return Math.max(1, MAX_CHUNK_BYTES / alignBytes) * alignBytes;
  }

  /**
   * Maps {@code file}, which must hold exactly {@code expectedBytes}, in chunks of {@code
   * chunkBytes}.
   *
   * @throws DataFormatException naming the file when it is missing or has another size
   */
  static MappedColumn map(Path file, long expectedBytes, long chunkBytes, String shapeDescription)
      throws IOException {
    if (chunkBytes <= 0 || chunkBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("chunk of " + chunkBytes + " bytes");
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size != expectedBytes) {
        throw new DataFormatException(
            file,
            0,
            "has "
                + size
                + " bytes, expected "
                + expectedBytes
                + " for "
                + shapeDescription
                + (size < expectedBytes ? " (truncated)" : ""));
      }
      int count = (int) ((size + chunkBytes - 1) / chunkBytes);
      MappedByteBuffer[] chunks = new MappedByteBuffer[count];
      for (int c = 0; c < count; c++) {
        long start = c * chunkBytes;
        chunks[c] =
            channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(chunkBytes, size - start));
      }
      return new MappedColumn(file, size, chunkBytes, chunks);
    } catch (NoSuchFileException e) {
      throw new DataFormatException(file, 0, "missing: the manifest lists this column file");
    }
  }

  Path file() {
    return file;
  }

  long bytes() {
    return bytes;
  }

  long chunkBytes() {
    return chunkBytes;
  }

  int chunkCount() {
    return chunks.length;
  }

  /** Chunk {@code c} as a little-endian buffer at position 0; each call gives a fresh view. */
  ByteBuffer chunk(int c) {
    return chunks[c].duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** CRC32C of the whole file, as 8 lower-case hex digits. */
  String crc32c() {
    CRC32C crc = new CRC32C();
    for (int c = 0; c < chunks.length; c++) {
      crc.update(chunk(c));
    }
    return String.format("%08x", crc.getValue());
  }

  void copyTo(int[] dst) {
    int at = 0;
    for (int c = 0; c < chunks.length; c++) {
      var view = chunk(c).asIntBuffer();
      int n = view.remaining();
      view.get(dst, at, n);
      at += n;
    }
  }

  void copyTo(long[] dst) {
    int at = 0;
    for (int c = 0; c < chunks.length; c++) {
      var view = chunk(c).asLongBuffer();
      int n = view.remaining();
      view.get(dst, at, n);
      at += n;
    }
  }

  void copyTo(double[] dst) {
    int at = 0;
    for (int c = 0; c < chunks.length; c++) {
      var view = chunk(c).asDoubleBuffer();
      int n = view.remaining();
      view.get(dst, at, n);
      at += n;
    }
  }

  void copyTo(byte[] dst) {
    int at = 0;
    for (int c = 0; c < chunks.length; c++) {
      ByteBuffer view = chunk(c);
      int n = view.remaining();
      view.get(dst, at, n);
      at += n;
    }
  }
}
