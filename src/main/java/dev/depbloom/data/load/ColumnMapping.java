package dev.depbloom.data.load;

import dev.depbloom.data.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which columns of a delimited file hold the source node, the destination node, the time and the
 * edge features. Written on the command line as {@code
 * src=source,dst=destination,time=timestamp,features=w+x}: feature columns are separated by {@code
 * +} or {@code ;}, and {@code features} may be left out (no edge features).
 *
 * <p>Columns are given either all by header name (matched case-insensitively) or all by 1-based
 * position, e.g. {@code src=1,dst=2,time=3,features=5}; positions also work for files without a
 * header, and columns not named are ignored. Invariant: never a mix of names and positions.
 */
public record ColumnMapping(String source, String destination, String time, List<String> features) {
  private static final String KEYS = "src, dst, time or features";

  public ColumnMapping {
    Objects.requireNonNull(source);
    Objects.requireNonNull(destination);
    Objects.requireNonNull(time);
    features = List.copyOf(features);
    checkNamesOrPositions(source, destination, time, features);
  }

  /** Parses the {@code --columns} syntax; mistakes are {@link InputException}s. */
  public static ColumnMapping parse(String spec) {
    String src = null;
    String dst = null;
    String time = null;
    List<String> features = new ArrayList<>();
    for (String part : spec.split(",")) {
      int eq = part.indexOf('=');
      String key = eq < 0 ? part.trim() : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : part.substring(eq + 1).trim();
      if (value.isEmpty()) {
        throw new InputException(
            "--columns: \""
                + part.trim()
                + "\" has no column name; expected"
                + " key=column with key "
                + KEYS);
      }
      switch (key) {
        case "src" -> src = once(src, value, key);
        case "dst" -> dst = once(dst, value, key);
        case "time" -> time = once(time, value, key);
        case "features" -> {
          if (!features.isEmpty()) {
            throw new InputException("--columns: features is given twice");
          }
          for (String f : value.split("[+;]")) {
            if (!f.isBlank()) {
              features.add(f.trim());
            }
          }
        }
        default ->
            throw new InputException("--columns: unknown key \"" + key + "\"; expected " + KEYS);
      }
    }
    if (src == null || dst == null || time == null) {
      throw new InputException(
          "--columns \""
              + spec
              + "\" must name src, dst and time, e.g."
              + " src=source,dst=destination,time=timestamp,features=w (header names) or"
              + " src=1,dst=2,time=3 (1-based positions)");
    }
    return new ColumnMapping(src, dst, time, features);
  }

  private static String once(String previous, String value, String key) {
    if (previous != null) {
      throw new InputException("--columns: " + key + " is given twice");
    }
    return value;
  }

  /** True when the columns are given by 1-based position rather than by header name. */
  public boolean byPosition() {
    return isPosition(source);
  }

  /** The 0-based index of a column given by its 1-based position ({@code "1"} is 0). */
  static int index(String position) {
    return Integer.parseInt(position) - 1;
  }

  private static boolean isPosition(String value) {
    return !value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /** A value that is a number but no valid position (0, 1.5, -2, too large) is a mistake. */
  private static void checkNamesOrPositions(
      String source, String destination, String time, List<String> features) {
    List<String> keys = new ArrayList<>(List.of("src", "dst", "time"));
    List<String> values = new ArrayList<>(List.of(source, destination, time));
    for (String f : features) {
      keys.add("features");
      values.add(f);
    }
    int positions = 0;
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      if (isPosition(value)) {
        if (value.length() > 9 || Integer.parseInt(value) < 1) {
          throw new InputException(
              "--columns "
                  + keys.get(i)
                  + "="
                  + value
                  + ": positions count from 1 (src=1 is the first column); expected 1 to"
                  + " 999999999");
        }
        positions++;
      } else if (value.matches("[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?")) {
        throw new InputException(
            "--columns "
                + keys.get(i)
                + "="
                + value
                + ": expected a 1-based column position (a whole number, e.g. "
                + keys.get(i)
                + "=1) or a header name");
      }
    }
    if (positions > 0 && positions < values.size()) {
      throw new InputException(
          "--columns "
              + spec(source, destination, time, features)
              + ": mixes positions and header names; give every column by 1-based position"
              + " (e.g. src=1,dst=2,time=3) or every column by header name");
    }
  }

  @Override
  public String toString() {
    return spec(source, destination, time, features);
  }

  /** The {@code --columns} text that parses to this mapping. */
  private static String spec(
      String source, String destination, String time, List<String> features) {
    String f = features.isEmpty() ? "" : ",features=" + String.join("+", features);
    return "src=" + source + ",dst=" + destination + ",time=" + time + f;
  }
}
