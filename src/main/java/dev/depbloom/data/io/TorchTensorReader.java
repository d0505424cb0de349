package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.TorchPickleDecoder.TensorLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the file {@code torch.save(tensor)} writes (torch 1.6 and later) for exactly one dense 1-D
 * or 2-D tensor, without libtorch: a zip archive holding {@code <name>/data.pkl} (the pickled
 * tensor layout, see {@link TorchPickleDecoder}) and {@code <name>/data/<key>} (the raw
 * little-endian storage). Float32, float64, float16, bfloat16, integer and bool element types are
 * converted to float; any stride and storage offset is honoured. A 1-D tensor becomes one column.
 */
public final class TorchTensorReader {
  private TorchTensorReader() {}

  /** The tensor in {@code file} as a {@code [rows, cols]} float matrix with finite values. */
  public static HeapFeatureMatrix read(Path file) {
    checkZipMagic(file);
    try (ZipFile zip = new ZipFile(file.toFile())) {
      String prefix = archivePrefix(zip, file);
      ZipEntry byteOrder = zip.getEntry(prefix + "byteorder");
      if (byteOrder != null && !readText(zip, byteOrder).trim().equals("little")) {
        throw new DataFormatException(file, 0, "stores big-endian data; expected little-endian");
      }
      byte[] pickle = readAll(zip, zip.getEntry(prefix + "data.pkl"));
      TensorLayout layout = TorchPickleDecoder.decode(pickle, file.toString());
      ZipEntry storage = zip.getEntry(prefix + "data/" + layout.storageKey());
      if (storage == null) {
        throw new DataFormatException(
            file, 0, "has no storage entry " + prefix + "data/" + layout.storageKey());
      }
      return new TensorCopier(file, layout, TorchElementType.of(layout.storageType(), file))
          .copy(zip, storage);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file");
    } catch (IOException e) {
      throw new InputException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static void checkZipMagic(Path file) {
    byte[] head = new byte[2];
    try (InputStream in = Files.newInputStream(file)) {
      int n = in.readNBytes(head, 0, 2);
      if (n == 2 && head[0] == 'P' && head[1] == 'K') {
        return;
      }
      String hint =
          n == 2 && (head[0] & 0xff) == 0x80
              ? " (this looks like the legacy pre-1.6 torch format; re-save it with torch.save from"
                  + " torch 1.6 or later)"
              : "";
      throw new DataFormatException(file, 0, "is not a zip archive as torch.save writes" + hint);
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file");
    } catch (IOException e) {
      throw new InputException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static String archivePrefix(ZipFile zip, Path file) {
    Enumeration<? extends ZipEntry> entries = zip.entries();
    while (entries.hasMoreElements()) {
      String name = entries.nextElement().getName();
      if (name.endsWith("data.pkl")) {
        return name.substring(0, name.length() - "data.pkl".length());
      }
    }
    throw new DataFormatException(file, 0, "has no data.pkl; expected a torch.save archive");
  }

  private static String readText(ZipFile zip, ZipEntry entry) throws IOException {
    return new String(readAll(zip, entry), StandardCharsets.UTF_8);
  }

  private static byte[] readAll(ZipFile zip, ZipEntry entry) throws IOException {
    try (InputStream in = zip.getInputStream(entry)) {
      return in.readAllBytes();
    }
  }

  /** Copies the elements of one tensor view out of its storage entry, converting to float. */
  private record TensorCopier(Path file, TensorLayout layout, TorchElementType type) {
    HeapFeatureMatrix copy(ZipFile zip, ZipEntry storage) throws IOException {
      long[] size = layout.size();
      if (size.length < 1 || size.length > 2) {
        throw new DataFormatException(
            file, 0, "holds a " + size.length + "-dimensional tensor; expected 1 or 2 dimensions");
      }
      long rows = size[0];
      long cols = size.length == 2 ? size[1] : 1;
      long rowStride = layout.stride()[0];
      long colStride = size.length == 2 ? layout.stride()[1] : 1;
      long values = rows * cols;
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
      long storageElements = storage.getSize() / type.bytes();
      long last =
          values == 0 ? 0 : layout.offset() + (rows - 1) * rowStride + (cols - 1) * colStride;
      if (storage.getSize() < 0 || (values > 0 && last >= storageElements)) {
        throw new DataFormatException(
            file,
            0,
            "has a tensor view reaching element " + last + " of a storage of " + storageElements);
      }
      float[] out = new float[(int) values];
      boolean contiguous = colStride == 1 && (rowStride == cols || rows <= 1);
      try (InputStream in = zip.getInputStream(storage)) {
        if (contiguous) {
          in.skipNBytes(layout.offset() * type.bytes());
          readContiguous(in, out);
        } else {
          gather(in, storageElements, rows, cols, rowStride, colStride, out);
        }
      }
      NpyMatrixReader.checkFinite(out, (int) cols, file);
      return new HeapFeatureMatrix(out, (int) rows, (int) cols);
    }

    private void readContiguous(InputStream in, float[] out) throws IOException {
      byte[] chunk = new byte[(1 << 20) / type.bytes() * type.bytes()];
      ByteBuffer view = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
      int filled = 0;
      while (filled < out.length) {
        int want = (int) Math.min(chunk.length, (long) (out.length - filled) * type.bytes());
        if (in.readNBytes(chunk, 0, want) < want) {
          throw new DataFormatException(file, 0, "has a truncated storage entry");
        }
        for (int at = 0; at < want; at += type.bytes()) {
          out[filled++] = type.read(view, at);
        }
      }
    }

    private void gather(
        InputStream in,
        long storageElements,
        long rows,
        long cols,
        long rowStride,
        long colStride,
        float[] out)
        throws IOException {
      if (storageElements * type.bytes() > Integer.MAX_VALUE - 8) {
        throw new DataFormatException(
            file,
            0,
            "holds a non-contiguous view of a storage too"
                + " large to gather; save tensor.contiguous() instead");
      }
      byte[] all = in.readAllBytes();
      ByteBuffer view = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
      int k = 0;
      for (long r = 0; r < rows; r++) {
        for (long c = 0; c < cols; c++) {
          long element = layout.offset() + r * rowStride + c * colStride;
          out[k++] = type.read(view, (int) (element * type.bytes()));
        }
      }
    }
  }
}
