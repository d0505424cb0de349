package dev.depbloom.data.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormatException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LineFieldsTest {
  private static LineFields line(String text) {
    CountingLineReader reader =
        new CountingLineReader(
            new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f.csv");
    reader.next();
    return new LineFields(reader);
  }

  private static double parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return LineFields.parseOrNaN(b, 0, b.length);
  }

  @Test
  void commaFieldsAreTrimmedAndEmptyFieldsKept() {
    LineFields f = line(" a , b,,c ");
    assertEquals(4, f.splitOn((byte) ','));
    assertEquals(List.of("a", "b", "", "c"), List.of(f.text(0), f.text(1), f.text(2), f.text(3)));
  }

  @Test
  void whitespaceFieldsSplitAtRunsOfSpacesAndTabs() {
    LineFields f = line("\t 12  34\t5 ");
    assertEquals(3, f.splitOnWhitespace());
    assertEquals(34, f.nonNegativeInteger(1, "dst"));
  }

  @Test
  void integerFieldsAcceptATrailingZeroFraction() {
    LineFields f = line("7,8.0,+9,10.00");
    f.splitOn((byte) ',');
    assertEquals(
        List.of(7L, 8L, 9L, 10L),
        List.of(
            f.nonNegativeInteger(0, "a"),
            f.nonNegativeInteger(1, "b"),
            f.nonNegativeInteger(2, "c"),
            f.nonNegativeInteger(3, "d")));
  }

  @Test
  void aNegativeIdNamesFileLineAndColumn() {
    LineFields f = line("3,-4,5");
    f.splitOn((byte) ',');
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> f.nonNegativeInteger(1, "dst"));
    assertEquals(
        "f.csv:1: column 2 (dst): must not be negative; expected a non-negative integer, found"
            + " \"-4\"",
        e.getMessage());
  }

  @Test
  void aFractionalIdIsRejected() {
    LineFields f = line("3.5");
    f.splitOn((byte) ',');
    assertThrows(DataFormatException.class, () -> f.nonNegativeInteger(0, "src"));
  }

  @Test
  void nanAndInfinityAreNotFiniteNumbers() {
    for (String text :
        List.of("nan", "NaN", "inf", "-Infinity", "1e999", "", "1d", "0x10", "--1")) {
      LineFields f = line("x," + text);
      f.splitOn((byte) ',');
      assertFalse(f.isFiniteNumber(1), text);
      DataFormatException e =
          assertThrows(DataFormatException.class, () -> f.finiteNumber(1, "time"), text);
      assertEquals(
          "f.csv:1: column 2 (time): expected a finite number, found \"" + text + "\"",
          e.getMessage());
    }
  }

  @Test
  void trickyDecimalsParseExactlyAsDoubleParseDouble() {
    List<String> texts =
        List.of(
            "0",
            "-0",
            "0.1",
            "0.3",
            "1.0",
            "-2.5",
            "123456789012345678",
            "9007199254740993",
            "1082040961",
            "0.000000000000000000001",
            "1.7976931348623157e308",
            "4.9e-324",
            "2.2250738585072014E-308",
            "3.141592653589793238",
            "1e5",
            "1E-5",
            ".5",
            "5.",
            "+7.25",
            "00012.5000");
    for (String t : texts) {
      assertEquals(Double.parseDouble(t), parse(t), t);
    }
  }

  @Test
  void randomDecimalsParseExactlyAsDoubleParseDouble() {
    SplittableRandom random = new SplittableRandom(42);
    for (int k = 0; k < 20_000; k++) {
      StringBuilder t = new StringBuilder(random.nextBoolean() ? "-" : "");
      int intDigits = random.nextInt(1, 12);
      for (int d = 0; d < intDigits; d++) {
        t.append((char) ('0' + random.nextInt(10)));
      }
      t.append('.');
      int fracDigits = random.nextInt(0, 12);
      for (int d = 0; d < fracDigits; d++) {
        t.append((char) ('0' + random.nextInt(10)));
      }
      String text = t.toString();
      assertEquals(Double.parseDouble(text), parse(text), text);
    }
  }

  /** 1.8e19 squares to a float; 1.9e19 does not (the square root of the largest float: 1.84e19). */
  @Test
  void featureValuesTooLargeToSquareInFloatAreRefused() {
    LineFields f = line("1.8e19,-1.9e19");
    f.splitOn((byte) ',');
    assertEquals(1.8e19f, f.featureValue(0, "amount"));
    String message =
        assertThrows(DataFormatException.class, () -> f.featureValue(1, "amount")).getMessage();
    assertTrue(
        message.contains(
            "column 2 (amount): the feature value -1.9e19 overflows float32 arithmetic"),
        message);
  }

  @Test
  void featureValuesAreTheDoubleRoundedToFloat() {
    LineFields f = line("0.1,1e39");
    f.splitOn((byte) ',');
    assertEquals((float) 0.1, f.featureValue(0, "w"));
    assertTrue(
        assertThrows(DataFormatException.class, () -> f.featureValue(1, "w"))
            .getMessage()
            .endsWith("\"1e39\" is outside the float range"));
  }
}
