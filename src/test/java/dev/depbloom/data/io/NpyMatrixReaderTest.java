package dev.depbloom.data.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Golden files written by numpy 1.24 (np.save / np.lib.format.write_array). */
class NpyMatrixReaderTest {
  static Path fixture(String name) {
    try {
      return Path.of(
          NpyMatrixReaderTest.class.getResource("/dev/depbloom/data/io/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void float32MatrixIsReadRowMajor() {
    HeapFeatureMatrix m = NpyMatrixReader.read(fixture("f4.npy"));
    assertEquals(2, m.rows());
    assertEquals(3, m.dim());
    assertArrayEquals(new float[] {1.5f, 2.25f, -3f, 4f, 5f, 6.125f}, m.values());
  }

  @Test
  void float64VectorBecomesOneColumnOfRoundedFloats() {
    HeapFeatureMatrix m = NpyMatrixReader.read(fixture("f8_vector.npy"));
    assertEquals(3, m.rows());
    assertEquals(1, m.dim());
    assertArrayEquals(new float[] {(float) 0.1, (float) 0.2, (float) 0.3}, m.values());
  }

  @Test
  void version2HeadersAreRead() {
    assertArrayEquals(new float[] {7f, 8f}, NpyMatrixReader.read(fixture("f4_v2.npy")).values());
  }

  @Test
  void fortranOrderIsRejectedWithTheFileName() {
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> NpyMatrixReader.read(fixture("fortran.npy")));
    assertEquals(
        fixture("fortran.npy")
            + ": is stored in Fortran order; expected C order (save np.ascontiguousarray(a))",
        e.getMessage());
  }

  @Test
  void integerArraysAreRejectedNamingTheDtype() {
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> NpyMatrixReader.read(fixture("int64.npy")));
    assertEquals(
        fixture("int64.npy")
            + ": has dtype '<i8'; expected '<f4' or '<f8' (little-endian float32 or float64)",
        e.getMessage());
  }

  @Test
  void aFileThatIsNotNpySaysSo() {
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> NpyMatrixReader.read(fixture("vector.pt")));
    assertEquals(
        fixture("vector.pt") + ": is not a .npy file (expected the magic \\x93NUMPY)",
        e.getMessage());
  }
}
