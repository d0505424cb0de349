package dev.depbloom.data.load;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.io.LineFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The column names of a CSV header line: trimmed, surrounding double quotes removed, compared
 * case-insensitively. pandas' unnamed index column is the empty name.
 */
final class CsvHeader {
  private final List<String> names;
  private final String source;
  private final long line;

  private CsvHeader(List<String> names, String source, long line) {
    this.names = names;
    this.source = source;
    this.line = line;
  }

  /** The header on the current line of {@code fields}' reader, split at commas. */
  static CsvHeader read(LineFields fields) {
    int n = fields.splitOn((byte) ',');
    List<String> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = fields.text(i).trim();
      if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
        name = name.substring(1, name.length() - 1).trim();
      }
      names.add(name.toLowerCase(Locale.ROOT));
    }
    return new CsvHeader(names, fields.source(), fields.lineNumber());
  }

  /** The 1-based line of the header. */
  long line() {
    return line;
  }

  int size() {
    return names.size();
  }

  String name(int column) {
    return names.get(column);
  }

  List<String> names() {
    return names;
  }

  /** Column index of {@code name}, or -1. */
  int indexOf(String name) {
    return names.indexOf(name.toLowerCase(Locale.ROOT));
  }

  /** Column index of {@code name}, or an error naming the header line. */
  int require(String name, String role) {
    int i = indexOf(name);
    if (i < 0) {
      throw new DataFormatException(
          source,
          line,
          "the header has no column \"" + name + "\" (" + role + "); its columns are " + names);
    }
    return i;
  }

  /** Checks that the current data row has as many fields as the header. */
  void checkWidth(LineFields row) {
    if (row.count() != names.size()) {
      throw row.error(
          "expected "
              + names.size()
              + " comma-separated columns as in the header "
              + names
              + ", found "
              + row.count());
    }
  }
}
