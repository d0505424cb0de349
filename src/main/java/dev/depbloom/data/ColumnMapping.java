package dev.depbloom.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which header columns of a CSV file hold the source node, the destination node, the time and the
 * edge features. Written on the command line as {@code
 * src=source,dst=destination,time=timestamp,features=w+x}: feature columns are separated by {@code
 * +} or {@code ;}, and {@code features} may be left out (no edge features). Column names match the
 * header case-insensitively.
 */
public record ColumnMapping(String source, String destination, String time, List<String> features) {
  public ColumnMapping {
    Objects.requireNonNull(source);
    Objects.requireNonNull(destination);
    Objects.requireNonNull(time);
    features = List.copyOf(features);
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
                + " key=column with key src, dst, time or features");
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
            throw new InputException(
                "--columns: unknown key \"" + key + "\"; expected src, dst, time or features");
      }
    }
    if (src == null || dst == null || time == null) {
      throw new InputException(
          "--columns \""
              + spec
              + "\" must name src, dst and time, e.g."
              + " src=source,dst=destination,time=timestamp,features=w");
    }
    return new ColumnMapping(src, dst, time, features);
  }

  private static String once(String previous, String value, String key) {
    if (previous != null) {
      throw new InputException("--columns: " + key + " is given twice");
    }
    return value;
  }

  @Override
  public String toString() {
    String f = features.isEmpty() ? "" : ",features=" + String.join("+", features);
    return "src=" + source + ",dst=" + destination + ",time=" + time + f;
  }
}
