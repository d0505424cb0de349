package dev.depbloom.tensor;

import java.util.Arrays;
import java.util.Map;

/**
 * Reads an operator's input shapes and dtypes from the strings libtorch's profiler helpers make of
 * them: shapes as {@code [[600, 100], [100], []]} (one list per input, empty for a non-tensor or a
 * 0-d tensor) and dtypes as {@code ["float", "long int", "Scalar", ""]} (a tensor's dtype name,
 * else the kind of value, or nothing). An input is a tensor when its dtype is one of {@code
 * dtypeBytes}.
 */
final class InputShapes {
  private static final long[] NONE = new long[0];

  private InputShapes() {}

  static void parse(String shapes, String types, Map<String, Integer> dtypeBytes, OpCall into) {
    long[][] parsedShapes = shapes(shapes);
    String[] parsedTypes = types(types);
    if (parsedShapes.length != parsedTypes.length) {
      throw new IllegalStateException(
          "input shapes " + shapes + " and dtypes " + types + " do not match");
    }
    into.startInputs(parsedShapes.length);
    for (int i = 0; i < parsedShapes.length; i++) {
      Integer bytes = dtypeBytes.get(parsedTypes[i]);
      into.inElement[i] = bytes == null ? 0 : bytes;
      into.shapes[i] = bytes == null ? NONE : parsedShapes[i];
    }
  }

  /** {@code [[a, b], [], [c]]} as {@code {{a, b}, {}, {c}}}. */
  static long[][] shapes(String s) {
    long[][] out = new long[8][];
    int n = 0;
    long[] dims = new long[8];
    int d = 0;
    int depth = 0;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '[') {
        depth++;
        d = 0;
      } else if (ch == ']') {
        if (depth == 2) {
          if (n == out.length) {
            out = Arrays.copyOf(out, n * 2);
          }
          out[n++] = Arrays.copyOf(dims, d);
        }
        depth--;
      } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        int end = i + 1;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
          end++;
        }
        if (d == dims.length) {
          dims = Arrays.copyOf(dims, d * 2);
        }
        dims[d++] = Long.parseLong(s, i, end, 10);
        i = end - 1;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** {@code ["float", "Scalar", ""]} as {@code {float, Scalar, ""}}. */
  static String[] types(String s) {
    String[] out = new String[8];
    int n = 0;
    int i = s.indexOf('"');
    while (i >= 0) {
      int end = s.indexOf('"', i + 1);
      if (end < 0) {
        throw new IllegalStateException("unterminated dtype in " + s);
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = s.substring(i + 1, end);
      i = s.indexOf('"', end + 1);
    }
    return Arrays.copyOf(out, n);
  }
}
