package dev.depbloom.device;

import java.util.List;

/**
 * The first difference between two ranks' set-up texts (lines of {@code key: value}, the config as
 * YAML), named by its key path, e.g. {@code schedule.devices: 4 vs 2}.
 */
final class SetupDifference {
  private SetupDifference() {}

  /** The first differing line of {@code a} and {@code b} with its YAML path, or null if equal. */
  static String between(String a, String b) {
    List<String> x = a.lines().toList();
    List<String> y = b.lines().toList();
    String section = "";
    for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
      String l = i < x.size() ? x.get(i) : null;
      String r = i < y.size() ? y.get(i) : null;
      if (l != null && r != null && l.equals(r)) {
        if (!l.startsWith(" ") && l.endsWith(":")) {
          section = l.substring(0, l.length() - 1) + ".";
        }
        continue;
      }
      String line = l != null ? l : r;
      String key = line.contains(":") ? line.substring(0, line.indexOf(':')).strip() : line.strip();
      String path = line.startsWith(" ") ? section + key : key;
      return path + ": " + value(l) + " vs " + value(r);
    }
    return null;
  }

  private static String value(String line) {
    if (line == null) {
      return "(missing)";
    }
    int colon = line.indexOf(':');
    return colon < 0 ? line.strip() : line.substring(colon + 1).strip();
  }
}
