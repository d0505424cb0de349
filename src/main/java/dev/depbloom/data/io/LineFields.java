package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The fields of the current line of a {@link CountingLineReader}, found without copying, and parsed
 * into numbers with errors that name the file, the line and the column.
 *
 * <p>Numbers are parsed exactly: a decimal that fits the fast path (at most 18 significant digits
 * and a power of ten up to 10^22, Clinger's condition) is one correctly rounded multiplication or
 * division; anything else goes to {@link Double#parseDouble}. So every value equals what {@code
 * Double.parseDouble} returns for the same text.
 */
public final class LineFields {
  private static final double[] POWERS_OF_TEN = new double[23];
  private static final long EXACT_DOUBLE_LIMIT = 1L << 53;

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private final CountingLineReader reader;
  private int[] starts = new int[16];
  private int[] ends = new int[16];
  private int count;

  public LineFields(CountingLineReader reader) {
    this.reader = reader;
  }

  /** Splits the current line at every {@code delimiter}; fields are trimmed of spaces and tabs. */
  public int splitOn(byte delimiter) {
    byte[] b = reader.bytes();
    int end = reader.end();
    count = 0;
    int fieldStart = reader.start();
    for (int i = fieldStart; i <= end; i++) {
      if (i == end || b[i] == delimiter) {
        int s = fieldStart;
        int e = i;
        while (s < e && isSpace(b[s])) {
          s++;
        }
        while (e > s && isSpace(b[e - 1])) {
          e--;
        }
        add(s, e);
        fieldStart = i + 1;
      }
    }
    return count;
  }

  /** Splits the current line at runs of spaces and tabs, ignoring leading and trailing ones. */
  public int splitOnWhitespace() {
    byte[] b = reader.bytes();
    int end = reader.end();
    count = 0;
    int i = reader.start();
    while (i < end) {
      while (i < end && isSpace(b[i])) {
        i++;
      }
      if (i == end) {
        break;
      }
      int s = i;
      while (i < end && !isSpace(b[i])) {
        i++;
      }
      add(s, i);
    }
    return count;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t';
  }

  private void add(int start, int end) {
    if (count == starts.length) {
      starts = Arrays.copyOf(starts, count * 2);
      ends = Arrays.copyOf(ends, count * 2);
    }
    starts[count] = start;
    ends[count] = end;
    count++;
  }

  public String source() {
    return reader.source();
  }

  public long lineNumber() {
    return reader.lineNumber();
  }

  public int count() {
    return count;
  }

  public String text(int field) {
    return new String(
        reader.bytes(), starts[field], ends[field] - starts[field], StandardCharsets.UTF_8);
  }

  /** A mistake on the current line. */
  public DataFormatException error(String problem) {
    return new DataFormatException(reader.source(), reader.lineNumber(), problem);
  }

  /**
   * The field as a non-negative integer (a node id, edge id or label): {@code 12}, or {@code 12.0}
   * as pandas writes integer columns that passed through floats.
   */
  public long nonNegativeInteger(int field, String column) {
    byte[] b = reader.bytes();
    int i = starts[field];
    int end = ends[field];
    if (i < end && b[i] == '+') {
      i++;
    }
    int digitsStart = i;
    long value = 0;
    while (i < end && b[i] >= '0' && b[i] <= '9' && i - digitsStart < 18) {
      value = value * 10 + (b[i] - '0');
      i++;
    }
    boolean ok = i > digitsStart;
    if (ok && i < end && b[i] == '.') {
      i++;
      while (i < end && b[i] == '0') {
        i++;
      }
    }
    if (!ok || i != end) {
      String found = text(field);
      String why = found.startsWith("-") ? "must not be negative; expected" : "expected";
      throw error(
          describe(field, column)
              + ": "
              + why
              + " a non-negative integer, found \""
              + found
              + "\"");
    }
    return value;
  }

  /** The field as a finite number, or an error naming the column. */
  public double finiteNumber(int field, String column) {
    double v = parseOrNaN(reader.bytes(), starts[field], ends[field]);
    if (!Double.isFinite(v)) {
      throw error(
          describe(field, column) + ": expected a finite number, found \"" + text(field) + "\"");
    }
    return v;
  }

  /**
   * The field as a finite float (a feature value), rounded from its exact double value; a value too
   * large to compute with ({@link FeatureMagnitude}) is an error naming the column.
   */
  public float featureValue(int field, String column) {
    float v = (float) finiteNumber(field, column);
    if (!Float.isFinite(v)) {
      throw error(describe(field, column) + ": \"" + text(field) + "\" is outside the float range");
    }
    if (FeatureMagnitude.tooLarge(v)) {
      throw error(describe(field, column) + ": " + FeatureMagnitude.problem(text(field)));
    }
    return v;
  }

  /**
   * True when the field is a number, finite or not ({@code nan}, {@code inf}, {@code -Infinity}): a
   * column of numbers with a NaN in it is still a numeric column.
   */
  public boolean isNumberLiteral(int field) {
    if (isFiniteNumber(field)) {
      return true;
    }
    String t = text(field).toLowerCase(Locale.ROOT);
    if (t.startsWith("-") || t.startsWith("+")) {
      t = t.substring(1);
    }
    return t.equals("nan") || t.equals("inf") || t.equals("infinity") || isOverflow(field);
  }

  private boolean isOverflow(int field) {
    double v = slowParse(reader.bytes(), starts[field], ends[field]);
    return Double.isInfinite(v);
  }

  /** True when the field parses as a finite number. */
  public boolean isFiniteNumber(int field) {
    return Double.isFinite(parseOrNaN(reader.bytes(), starts[field], ends[field]));
  }

  private static String describe(int field, String column) {
    return "column " + (field + 1) + " (" + column + ")";
  }

  /** The exact double value of a decimal in {@code b[from, to)}, or NaN when it is not one. */
  static double parseOrNaN(byte[] b, int from, int to) {
    int i = from;
    boolean negative = false;
    if (i < to && (b[i] == '-' || b[i] == '+')) {
      negative = b[i] == '-';
      i++;
    }
    long mantissa = 0;
    int significant = 0;
    int exponent = 0;
    boolean anyDigit = false;
    boolean dot = false;
    for (; i < to; i++) {
      byte c = b[i];
      if (c >= '0' && c <= '9') {
        anyDigit = true;
        if (mantissa != 0 || c != '0') {
          if (++significant > 18) {
            return slowParse(b, from, to);
          }
          mantissa = mantissa * 10 + (c - '0');
        }
        if (dot) {
          exponent--;
        }
      } else if (c == '.' && !dot) {
        dot = true;
      } else if ((c == 'e' || c == 'E') && anyDigit) {
        return slowParse(b, from, to);
      } else {
        return Double.NaN;
      }
    }
    if (!anyDigit) {
      return Double.NaN;
    }
    double v;
    if (mantissa == 0) {
      v = 0.0;
    } else if (exponent == 0) {
      v = mantissa; // long to double rounds to nearest (JLS 5.1.2)
    } else if (mantissa < EXACT_DOUBLE_LIMIT && exponent >= -22) {
      v = mantissa / POWERS_OF_TEN[-exponent];
    } else {
      return slowParse(b, from, to);
    }
    return negative ? -v : v;
  }

  /** Double.parseDouble on text already restricted to digits, sign, dot and exponent. */
  private static double slowParse(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      byte c = b[i];
      boolean allowed =
          (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
      if (!allowed) {
        return Double.NaN;
      }
    }
    try {
      return Double.parseDouble(new String(b, from, to - from, StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
