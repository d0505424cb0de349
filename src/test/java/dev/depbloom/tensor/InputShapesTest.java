package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Input shapes and dtypes read back from libtorch's profiler strings. */
class InputShapesTest {
  private static final Map<String, Integer> BYTES = Map.of("float", 4, "long int", 8);

  @Test
  void readsTensorsShapesAndElementSizesAndLeavesOtherInputsOut() {
    OpCall c = new OpCall();
    InputShapes.parse(
        "[[600, 100], [], [1800], [], []]",
        "[\"float\", \"Int\", \"long int\", \"GenericList\", \"\"]",
        BYTES,
        c);
    assertEquals(5, c.inputs);
    assertArrayEquals(new long[] {600, 100}, c.shapes[0]);
    assertArrayEquals(new int[] {4, 0, 8, 0, 0}, java.util.Arrays.copyOf(c.inElement, 5));
    assertArrayEquals(new long[] {1800}, c.shapes[2]);
    assertEquals(600 * 100 * 4 + 1800 * 8, c.inputBytes());
  }

  @Test
  void aZeroDimensionalTensorIsOneElement() {
    OpCall c = new OpCall();
    InputShapes.parse("[[]]", "[\"float\"]", BYTES, c);
    assertEquals(4, c.inputBytes());
  }

  @Test
  void noInputsAndManyInputsBothParse() {
    assertEquals(0, InputShapes.shapes("[]").length);
    assertEquals(0, InputShapes.types("[]").length);
    StringBuilder shapes = new StringBuilder("[");
    for (int i = 0; i < 20; i++) {
      shapes.append(i > 0 ? ", " : "").append("[1, 2, 3, 4, 5, 6, 7, 8, ").append(i).append(']');
    }
    long[][] parsed = InputShapes.shapes(shapes.append(']').toString());
    assertEquals(20, parsed.length);
    assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 19}, parsed[19]);
  }

  @Test
  void shapesAndDtypesOfDifferentLengthsAreAnError() {
    assertThrows(
        IllegalStateException.class,
        () -> InputShapes.parse("[[1], [2]]", "[\"float\"]", BYTES, new OpCall()));
  }
}
