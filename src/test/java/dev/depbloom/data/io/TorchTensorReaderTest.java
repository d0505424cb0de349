package dev.depbloom.data.io;

import static dev.depbloom.data.io.NpyMatrixReaderTest.fixture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.HeapFeatureMatrix;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Golden files written by torch 1.13's torch.save (see the test resources). */
class TorchTensorReaderTest {
  @Test
  void float32MatrixFromTheTglFixtureIsReadRowMajor() {
    HeapFeatureMatrix m = TorchTensorReader.read(fixture("../tgl-tiny/edge_features.pt"));
    assertEquals(5, m.rows());
    assertEquals(2, m.dim());
    assertArrayEquals(
        new float[] {0.5f, 0f, 1.5f, 10f, 2.5f, 20f, 3.5f, 30f, 4.5f, 40f}, m.values());
  }

  @Test
  void float64IsRoundedToFloat() {
    HeapFeatureMatrix m = TorchTensorReader.read(fixture("../tgl-tiny/node_features.pt"));
    assertEquals(4, m.rows());
    assertArrayEquals(new float[] {3f, 3.25f, -3f}, Arrays.copyOfRange(m.values(), 9, 12));
  }

  @Test
  void halfPrecisionValuesConvertExactly() {
    assertArrayEquals(
        new float[] {1.5f, -2f, 0.0999755859375f, 65504f},
        TorchTensorReader.read(fixture("half.pt")).values());
  }

  @Test
  void bfloat16ValuesConvertExactly() {
    assertArrayEquals(
        new float[] {1.5f, -2f, 3.140625f, Float.intBitsToFloat(1900675072)},
        TorchTensorReader.read(fixture("bfloat16.pt")).values());
  }

  @Test
  void int64ValuesBecomeFloats() {
    assertArrayEquals(
        new float[] {1, -2, 3, 4, 5, -6}, TorchTensorReader.read(fixture("int64.pt")).values());
  }

  @Test
  void aTransposedViewIsGatheredThroughItsStrides() {
    HeapFeatureMatrix m = TorchTensorReader.read(fixture("transposed.pt"));
    assertEquals(3, m.rows());
    assertEquals(2, m.dim());
    assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, m.values());
  }

  @Test
  void aSliceHonoursTheStorageOffset() {
    assertArrayEquals(
        new float[] {3, 4, 5, 6, 7, 8},
        TorchTensorReader.read(fixture("slice_of_storage.pt")).values());
  }

  @Test
  void aVectorBecomesOneColumn() {
    HeapFeatureMatrix m = TorchTensorReader.read(fixture("vector.pt"));
    assertEquals(1, m.dim());
    assertArrayEquals(new float[] {0.25f, 0.5f, 0.75f}, m.values());
  }

  @Test
  void aStateDictIsNotATensor() {
    DataFormatException e =
        assertThrows(
            DataFormatException.class, () -> TorchTensorReader.read(fixture("state_dict.pt")));
    assertEquals(
        fixture("state_dict.pt")
            + ": holds a dict (a state_dict?); expected a single tensor saved with"
            + " torch.save(tensor)",
        e.getMessage());
  }

  @Test
  void threeDimensionsAreRejected() {
    DataFormatException e =
        assertThrows(
            DataFormatException.class, () -> TorchTensorReader.read(fixture("three_dims.pt")));
    assertEquals(
        fixture("three_dims.pt") + ": holds a 3-dimensional tensor; expected 1 or 2 dimensions",
        e.getMessage());
  }

  @Test
  void nonFiniteFeaturesAreRejectedWithTheirPosition() {
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> TorchTensorReader.read(fixture("nan.pt")));
    assertEquals(
        fixture("nan.pt")
            + ": has the non-finite value NaN at row 0, column 1; expected finite"
            + " features",
        e.getMessage());
  }

  @Test
  void aNonZipFileIsNotATorchFile() {
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> TorchTensorReader.read(fixture("f4.npy")));
    assertEquals(fixture("f4.npy") + ": is not a zip archive as torch.save writes", e.getMessage());
  }
}
