package dev.depbloom.tensor;

import dev.depbloom.data.FeatureMatrix;
import java.nio.FloatBuffer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.pytorch.MemoryFormatOptional;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;
import org.bytedeco.pytorch.global.torch.ScalarType;

/**
 * Moves data between Java arrays and CPU tensors in one bulk copy each, and keeps the JavaCPP
 * pointer types inside this package. Tensors created here belong to the innermost open {@link
 * StepScope}.
 */
public final class Tensors {
  private Tensors() {}

  /** A float32 tensor of the given shape holding {@code data} (row-major). */
  public static Tensor floats(float[] data, long... shape) {
    long n = product(shape);
    if (n > data.length) {
      throw new IllegalArgumentException("shape needs " + n + " values, array has " + data.length);
    }
    Tensor t = torch.empty(shape);
    if (n > 0) {
      t.data_ptr_float().put(data, 0, (int) n);
    }
    return t;
  }

  /** An int64 index tensor {@code [count]} holding {@code ids[0 .. count)}. */
  public static Tensor indices(int[] ids, int count) {
    long[] wide = new long[count];
    for (int i = 0; i < count; i++) {
      wide[i] = ids[i];
    }
    Tensor t =
        torch.empty(
            new long[] {count}, new TensorOptions(ScalarType.Long), new MemoryFormatOptional());
    if (count > 0) {
      t.data_ptr_long().put(wide, 0, count);
    }
    return t;
  }

  /** A float64 tensor {@code [n]} holding {@code data} exactly (times in checkpoints). */
  public static Tensor doubles(double[] data) {
    Tensor t =
        torch.empty(
            new long[] {data.length},
            new TensorOptions(ScalarType.Double),
            new MemoryFormatOptional());
    if (data.length > 0) {
      t.data_ptr_double().put(data, 0, data.length);
    }
    return t;
  }

  /** The values of a float64 tensor, copied to a Java array. */
  public static double[] toDoubles(Tensor t) {
    Tensor c = host(t).contiguous();
    int n = (int) c.numel();
    double[] out = new double[n];
    if (n > 0) {
      c.data_ptr_double().get(out, 0, n);
    }
    return out;
  }

  /** An int64 tensor {@code [n]} holding {@code values}. */
  public static Tensor longs(long[] values) {
    Tensor t =
        torch.empty(
            new long[] {values.length},
            new TensorOptions(ScalarType.Long),
            new MemoryFormatOptional());
    if (values.length > 0) {
      t.data_ptr_long().put(values, 0, values.length);
    }
    return t;
  }

  /** An int64 index tensor holding all of {@code ids}. */
  public static Tensor indices(int[] ids) {
    return indices(ids, ids.length);
  }

  /** A boolean tensor {@code [count]}. */
  public static Tensor mask(boolean[] values, int count) {
    byte[] b = new byte[count];
    for (int i = 0; i < count; i++) {
      b[i] = values[i] ? (byte) 1 : 0;
    }
    Tensor t =
        torch.empty(
            new long[] {count}, new TensorOptions(ScalarType.Byte), new MemoryFormatOptional());
    t.data_ptr_byte().put(b, 0, count);
    return t.to(ScalarType.Bool);
  }

  /** Rows {@code rows[0 .. count)} of a feature matrix as a float32 tensor {@code [count, dim]}. */
  public static Tensor gatherRows(FeatureMatrix features, int[] rows, int count) {
    int dim = features.dim();
    Tensor t = torch.empty(count, dim);
    if ((long) count * dim > 0) {
      FloatBuffer out =
          new FloatPointer(t.data_ptr_float()).capacity((long) count * dim).asBuffer();
      features.gather(rows, count, out);
      if (out.position() != count * dim) {
        throw new IllegalStateException("feature gather wrote " + out.position() + " values");
      }
    }
    return t;
  }

  /** The values of a float32 tensor, copied to a Java array (contiguous copy first if needed). */
  public static float[] toFloats(Tensor t) {
    Tensor c = host(t).contiguous();
    int n = (int) c.numel();
    float[] out = new float[n];
    if (n > 0) {
      c.data_ptr_float().get(out, 0, n);
    }
    return out;
  }

  /** The values of an int64 tensor, copied to a Java array. */
  public static long[] toLongs(Tensor t) {
    Tensor c = host(t).contiguous();
    int n = (int) c.numel();
    long[] out = new long[n];
    if (n > 0) {
      new LongPointer(c.data_ptr_long()).get(out, 0, n);
    }
    return out;
  }

  /** A scalar for the binding's arithmetic overloads. */
  public static Scalar scalar(double value) {
    return new Scalar(value);
  }

  /** {@code t} on the host: itself when it is there, else a copy (see {@link RankDevice}). */
  public static Tensor host(Tensor t) {
    return t.is_cpu() ? t : t.cpu();
  }

  /** Keeps {@code t} alive past its scope; the caller must {@link #release} it later. */
  public static Tensor retain(Tensor t) {
    t.retainReference();
    return t;
  }

  /** Ends the life of a tensor kept with {@link #retain}. */
  public static void release(Tensor t) {
    if (t != null) {
      t.releaseReference();
    }
  }

  private static long product(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }

  /** Fills rows {@code from .. from + n} of a tensor filled piece by piece. */
  @FunctionalInterface
  public interface RowPiece {
    /** Writes piece {@code index}'s rows into {@code into} ({@code [n, ...]}, a view of them). */
    void fill(int index, long from, long n, Tensor into);
  }

  /**
   * Fills the first {@code rows} rows of {@code out} {@code piece} rows at a time, each piece
   * written into its rows by {@code compute} in a scope of its own, so that each piece's
   * intermediates are freed (and their memory reused, in cache) before the next.
   */
  public static void fillInPieces(Tensor out, long rows, long piece, RowPiece compute) {
    int index = 0;
    for (long from = 0; from < rows; from += piece, index++) {
      long n = Math.min(piece, rows - from);
      try (StepScope scope = new StepScope()) {
        compute.fill(index, from, n, out.narrow(0, from, n));
      }
    }
  }
}
