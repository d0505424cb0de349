package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.LineFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A comma-separated file with a header line. The columns come from a {@link ColumnMapping}, or,
 * without one, from well-known header names when each role has exactly one candidate:
 *
 * <ul>
 *   <li>source: {@code src}, {@code source}, {@code u}, {@code user_id}
 *   <li>destination: {@code dst}, {@code destination}, {@code i}, {@code item_id}
 *   <li>time: {@code time}, {@code timestamp}, {@code ts}
 *   <li>ignored: {@code label}, {@code state_label}, {@code idx}, and an unnamed index column
 *   <li>every other column that holds a number on the first row: an edge feature, in header order
 *       (a NaN or infinity there still makes it a feature column, and then an error)
 * </ul>
 *
 * Node ids share one id space (no offset, unlike {@link DataFormat#JODIE}).
 */
final class HeaderCsvLoader {
  private static final Set<String> SOURCE_NAMES = Set.of("src", "source", "u", "user_id");
  private static final Set<String> DESTINATION_NAMES = Set.of("dst", "destination", "i", "item_id");
  private static final Set<String> TIME_NAMES = Set.of("time", "timestamp", "ts");
  private static final Set<String> IGNORED_NAMES =
      Set.of("label", "state_label", "idx", "", "unnamed: 0");

  private HeaderCsvLoader() {}

  private record Columns(int src, int dst, int time, int[] features, List<String> featureNames) {}

  static EventStream load(CountingLineReader lines, LoadOptions options) {
    TextLines.requireHeader(lines, "naming the columns, e.g. src,dst,time");
    LineFields fields = new LineFields(lines);
    CsvHeader header = CsvHeader.read(fields);
    long headerLine = lines.lineNumber();
    if (!TextLines.nextContent(lines, false)) {
      throw TextLines.noEvents(lines, "with the columns of the header " + header.names());
    }
    fields.splitOn((byte) ',');
    header.checkWidth(fields);
    Columns columns =
        options.columns() != null
            ? mapped(header, options.columns(), fields)
            : automatic(header, headerLine, fields, options);
    EventTableBuilder events = new EventTableBuilder(lines.source(), DataFormat.CSV, options);
    events.inlineFeatures(columns.features().length);
    float[] row = new float[columns.features().length];
    do {
      fields.splitOn((byte) ',');
      header.checkWidth(fields);
      for (int j = 0; j < row.length; j++) {
        row[j] = fields.featureValue(columns.features()[j], columns.featureNames().get(j));
      }
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(columns.src(), header.name(columns.src())),
          fields.nonNegativeInteger(columns.dst(), header.name(columns.dst())),
          fields.finiteNumber(columns.time(), header.name(columns.time())),
          row);
    } while (TextLines.nextContent(lines, false));
    return events.finish();
  }

  private static Columns mapped(CsvHeader header, ColumnMapping mapping, LineFields fields) {
    int[] features = new int[mapping.features().size()];
    for (int j = 0; j < features.length; j++) {
      features[j] = header.require(mapping.features().get(j), "features in --columns");
    }
    return new Columns(
        header.require(mapping.source(), "src in --columns"),
        header.require(mapping.destination(), "dst in --columns"),
        header.require(mapping.time(), "time in --columns"),
        features,
        mapping.features());
  }

  private static Columns automatic(
      CsvHeader header, long headerLine, LineFields firstRow, LoadOptions options) {
    String source = firstRow.source();
    int src = unique(header, SOURCE_NAMES, "source", source, headerLine);
    int dst = unique(header, DESTINATION_NAMES, "destination", source, headerLine);
    int time = unique(header, TIME_NAMES, "time", source, headerLine);
    List<Integer> features = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int c = 0; c < header.size(); c++) {
      String name = header.name(c);
      if (c == src || c == dst || c == time || IGNORED_NAMES.contains(name)) {
        continue;
      }
      if (firstRow.isNumberLiteral(c)) {
        features.add(c);
        names.add(name);
      } else {
        options
            .warnings()
            .accept(
                source
                    + ": column \""
                    + name
                    + "\" is not numeric on line "
                    + firstRow.lineNumber()
                    + "; ignored (name the columns with --columns to choose)");
      }
    }
    int[] featureColumns = features.stream().mapToInt(Integer::intValue).toArray();
    return new Columns(src, dst, time, featureColumns, names);
  }

  private static int unique(
      CsvHeader header, Set<String> candidates, String role, String source, long headerLine) {
    int found = -1;
    for (int c = 0; c < header.size(); c++) {
      if (candidates.contains(header.name(c))) {
        if (found >= 0) {
          throw new DataFormatException(
              source,
              headerLine,
              "both \""
                  + header.name(found)
                  + "\" and \""
                  + header.name(c)
                  + "\" could be the "
                  + role
                  + " column; choose with --columns src=...,dst=...,time=...");
        }
        found = c;
      }
    }
    if (found < 0) {
      throw new DataFormatException(
          source,
          headerLine,
          "no "
              + role
              + " column among "
              + header.names()
              + "; expected one of "
              + new TreeSet<>(candidates)
              + ", or name it with --columns");
    }
    return found;
  }
}
