package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import java.util.function.Consumer;

/**
 * How {@link EventLoader} reads a file.
 *
 * @param format the format, or null to detect it from the path and the first line
 * @param columns the column mapping of a header CSV, or null to map well-known header names
 * @param strict reject input that is not sorted by time instead of sorting it with a warning
 * @param bipartite force the bipartite flag, or null to detect it (no node is both a source and a
 *     destination)
 * @param warnings receives one message per thing the loader fixed or ignored; never null
 */
public record LoadOptions(
    DataFormat format,
    ColumnMapping columns,
    boolean strict,
    Boolean bipartite,
    Consumer<String> warnings) {
  public LoadOptions {
    if (warnings == null) {
      warnings = message -> {};
    }
  }

  /** Detect the format, map columns automatically, sort unsorted input, drop warnings. */
  public static LoadOptions defaults() {
    return new LoadOptions(null, null, false, null, null);
  }

  public LoadOptions withFormat(DataFormat value) {
    return new LoadOptions(value, columns, strict, bipartite, warnings);
  }

  public LoadOptions withColumns(ColumnMapping value) {
    return new LoadOptions(format, value, strict, bipartite, warnings);
  }

  public LoadOptions withStrict(boolean value) {
    return new LoadOptions(format, columns, value, bipartite, warnings);
  }

  public LoadOptions withBipartite(Boolean value) {
    return new LoadOptions(format, columns, strict, value, warnings);
  }

  public LoadOptions withWarnings(Consumer<String> value) {
    return new LoadOptions(format, columns, strict, bipartite, value);
  }
}
