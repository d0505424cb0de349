package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a NumPy {@code .npy} file holding a 1-D or 2-D little-endian float32 ({@code '<f4'}) or
 * float64 ({@code '<f8'}) array in C order, format versions 1 to 3, into a float matrix (a 1-D
 * array becomes one column). Anything else is rejected with a message naming the file and what was
 * found.
 *
 * <p>Reference: the NPY format specification, numpy.lib.format.
 */
public final class NpyMatrixReader {
  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
  private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
  private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

  private NpyMatrixReader() {}

  /** The array in {@code file} as a {@code [rows, cols]} float matrix. */
  public static HeapFeatureMatrix read(Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      Header header = readHeader(channel, file);
      long values = header.rows * header.cols;
      if (values > Integer.MAX_VALUE - 8) {
        throw new DataFormatException(
            file,
            0,
            "holds "
                + values
                + " values; this build keeps"
                + " features in one Java array, at most "
                + (Integer.MAX_VALUE - 8));
      }
      long expectedBytes = values * header.itemBytes;
      long available = channel.size() - channel.position();
      if (available < expectedBytes) {
        throw new DataFormatException(
            file,
            0,
            "is truncated: the header promises "
                + expectedBytes
                + " bytes of data, the file has "
                + available);
      }
      float[] data = new float[(int) values];
      readValues(channel, header.itemBytes, data);
      checkFinite(data, (int) header.cols, file);
      return new HeapFeatureMatrix(data, (int) header.rows, (int) header.cols);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file");
    } catch (IOException e) {
      throw new InputException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private record Header(long rows, long cols, int itemBytes) {}

  private static Header readHeader(FileChannel channel, Path file) throws IOException {
    ByteBuffer prefix = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    channel.read(prefix, 0);
    for (int i = 0; i < MAGIC.length; i++) {
      if (prefix.limit() < 10 || prefix.get(i) != MAGIC[i]) {
        throw new DataFormatException(
            file, 0, "is not a .npy file (expected the magic \\x93NUMPY)");
      }
    }
    int major = prefix.get(6);
    long headerLength;
    int headerStart;
    if (major == 1) {
      headerLength = Short.toUnsignedInt(prefix.getShort(8));
      headerStart = 10;
    } else if (major == 2 || major == 3) {
      headerLength = Integer.toUnsignedLong(prefix.getInt(8));
      headerStart = 12;
    } else {
      throw new DataFormatException(
          file, 0, "has .npy format version " + major + "; expected 1, 2 or 3");
    }
    if (headerLength > 1 << 20) {
      throw new DataFormatException(file, 0, "has an implausible header length " + headerLength);
    }
    ByteBuffer text = ByteBuffer.allocate((int) headerLength);
    channel.read(text, headerStart);
    channel.position(headerStart + headerLength);
    String dict =
        new String(
            text.array(),
            0,
            text.position(),
            major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    return parseHeader(dict, file);
  }

  private static Header parseHeader(String dict, Path file) {
    String descr = group(DESCR, dict, file, "'descr'");
    String fortran = group(FORTRAN, dict, file, "'fortran_order'");
    String shape = group(SHAPE, dict, file, "'shape'");
    int itemBytes =
        switch (descr) {
          case "<f4" -> 4;
          case "<f8" -> 8;
          default ->
              throw new DataFormatException(
                  file,
                  0,
                  "has dtype '"
                      + descr
                      + "'; expected '<f4' or '<f8' (little-endian float32 or float64)");
        };
    if (fortran.equals("True")) {
      throw new DataFormatException(
          file,
          0,
          "is stored in Fortran order; expected C order" + " (save np.ascontiguousarray(a))");
    }
    long[] dims = parseShape(shape, file);
    if (dims.length == 1) {
      return new Header(dims[0], 1, itemBytes);
    }
    if (dims.length == 2) {
      return new Header(dims[0], dims[1], itemBytes);
    }
    throw new DataFormatException(
        file, 0, "has shape (" + shape + "); expected a 1-D or 2-D" + " array");
  }

  private static long[] parseShape(String shape, Path file) {
    String[] parts = shape.trim().split("\\s*,\\s*");
    int n = parts.length > 0 && parts[parts.length - 1].isEmpty() ? parts.length - 1 : parts.length;
    long[] dims = new long[n];
    for (int i = 0; i < n; i++) {
      try {
        dims[i] = Long.parseLong(parts[i].replace("L", ""));
      } catch (NumberFormatException e) {
        throw new DataFormatException(file, 0, "has an unreadable shape (" + shape + ")");
      }
    }
    return dims;
  }

  private static String group(Pattern pattern, String dict, Path file, String key) {
    Matcher m = pattern.matcher(dict);
    if (!m.find()) {
      throw new DataFormatException(file, 0, "has no " + key + " in its header " + dict.trim());
    }
    return m.group(1);
  }

  /** Rejects non-finite feature values, naming the file, row and column. */
  static void checkFinite(float[] values, int cols, Path file) {
    for (int i = 0; i < values.length; i++) {
      if (!Float.isFinite(values[i])) {
        throw new DataFormatException(
            file,
            0,
            "has the non-finite value "
                + values[i]
                + " at row "
                + i / cols
                + ", column "
                + i % cols
                + "; expected finite features");
      }
    }
  }

  private static void readValues(FileChannel channel, int itemBytes, float[] out)
      throws IOException {
    ByteBuffer chunk = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    int filled = 0;
    while (filled < out.length) {
      chunk.clear();
      chunk.limit((int) Math.min(chunk.capacity(), (long) (out.length - filled) * itemBytes));
      while (chunk.hasRemaining()) {
        if (channel.read(chunk) < 0) {
          throw new IOException("unexpected end of file");
        }
      }
      chunk.flip();
      if (itemBytes == 4) {
        int n = chunk.remaining() / 4;
        chunk.asFloatBuffer().get(out, filled, n);
        filled += n;
      } else {
        while (chunk.hasRemaining()) {
          out[filled++] = (float) chunk.getDouble();
        }
      }
    }
  }
}
