package dev.depbloom.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads one config section with validation: every value is checked as it is read, defaults come
 * from the caller, and {@link #finish()} rejects keys nobody read, naming them and the known keys.
 * Each section's record reads itself with one (the schedule's in the schedule layer).
 */
public final class SectionReader {
  private final String source;
  private final String section;
  private final ObjectNode node;
  private final Set<String> known = new LinkedHashSet<>();

  SectionReader(String source, String section, ObjectNode node) {
    this.source = source;
    this.section = section;
    this.node = node;
  }

  private String path(String key) {
    return source + ": " + section + "." + key;
  }

  private JsonNode value(String key) {
    known.add(key);
    JsonNode v = node.get(key);
    return v == null || v.isNull() ? null : v;
  }

  /** Marks keys that TGL files carry but this trainer does not use, so they are accepted. */
  void ignore(String... keys) {
    known.addAll(List.of(keys));
  }

  public boolean has(String key) {
    return node.has(key);
  }

  public int positiveInt(String key, int fallback) {
    int v = integer(key, fallback);
    if (v <= 0) {
      throw new ConfigException(path(key) + ": expected a positive integer, got " + v);
    }
    return v;
  }

  public int nonNegativeInt(String key, int fallback) {
    int v = integer(key, fallback);
    if (v < 0) {
      throw new ConfigException(path(key) + ": expected an integer >= 0, got " + v);
    }
    return v;
  }

  private int integer(String key, int fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (v.isTextual()) {
      try {
        return Integer.parseInt(v.asText().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(path(key) + ": expected an integer, got '" + v.asText() + "'");
      }
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new ConfigException(path(key) + ": expected an integer, got " + v);
    }
    return v.intValue();
  }

  double number(String key, double fallback, double min, double max) {
    JsonNode v = value(key);
    double d;
    if (v == null) {
      d = fallback;
    } else if (v.isNumber()) {
      d = v.doubleValue();
    } else if (v.isTextual()) {
      try {
        d = Double.parseDouble(v.asText().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(path(key) + ": expected a number, got '" + v.asText() + "'");
      }
    } else {
      throw new ConfigException(path(key) + ": expected a number, got " + v);
    }
    if (!(d >= min && d <= max)) {
      throw new ConfigException(
          path(key) + ": expected a number in [" + min + ", " + max + "], got " + d);
    }
    return d;
  }

  double positiveNumber(String key, double fallback) {
    double d = number(key, fallback, 0, Double.MAX_VALUE);
    if (d <= 0) {
      throw new ConfigException(path(key) + ": expected a positive number, got " + d);
    }
    return d;
  }

  public boolean bool(String key, boolean fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    String s = v.asText().trim().toLowerCase(Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return Boolean.parseBoolean(s);
    }
    throw new ConfigException(path(key) + ": expected true or false, got " + v);
  }

  public <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    String s = v.asText().trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(s)) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name().toLowerCase(Locale.ROOT));
    }
    throw new ConfigException(
        path(key) + ": expected one of " + names + ", got '" + v.asText() + "'");
  }

  /** A list of positive integers; a single number is a list of one (TGL writes both). */
  List<Integer> positiveInts(String key, List<Integer> fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    List<Integer> out = new ArrayList<>();
    if (v.isArray()) {
      for (JsonNode e : v) {
        if (!e.isIntegralNumber() || e.intValue() <= 0) {
          throw new ConfigException(path(key) + ": expected positive integers, got " + v);
        }
        out.add(e.intValue());
      }
    } else if (v.isIntegralNumber() && v.intValue() > 0) {
      out.add(v.intValue());
    } else if (v.isTextual()) {
      for (String part : v.asText().replace("[", "").replace("]", "").split(",")) {
        try {
          int i = Integer.parseInt(part.trim());
          if (i <= 0) {
            throw new NumberFormatException();
          }
          out.add(i);
        } catch (NumberFormatException e) {
          throw new ConfigException(path(key) + ": expected positive integers, got " + v);
        }
      }
    } else {
      throw new ConfigException(path(key) + ": expected a list of positive integers, got " + v);
    }
    return List.copyOf(out);
  }

  /** The keys of the section that nobody has read so far, in the file's order. */
  public List<String> unread() {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key)) {
        out.add(key);
      }
    }
    return out;
  }

  /** Fails on any key that was never read. */
  public void finish() {
    List<String> unknown = unread();
    if (!unknown.isEmpty()) {
      throw new ConfigException(
          path(unknown.get(0)) + ": unknown key (known keys of '" + section + "': " + known + ")");
    }
  }

  /** A value as text (numbers and booleans as written). */
  public String text(String key) {
    JsonNode v = value(key);
    if (v == null || !v.isValueNode()) {
      throw new ConfigException(path(key) + ": expected a value, got " + v);
    }
    return v.asText();
  }

  public ConfigException error(String key, String problem) {
    return new ConfigException(path(key) + ": " + problem);
  }
}
