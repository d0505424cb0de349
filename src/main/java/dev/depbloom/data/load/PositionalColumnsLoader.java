package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.LineFields;

/**
 * Delimited text whose columns are chosen by 1-based position ({@code --columns
 * src=1,dst=2,time=3,features=5}); columns not named are ignored, so rows may carry class labels or
 * other text. Every row must reach the highest position named.
 *
 * <p>With a format given, its layout applies: {@link DataFormat#CSV} is comma-separated with a
 * header line, {@link DataFormat#SNAP} whitespace-separated without header ({@code #} comment lines
 * skipped), {@link DataFormat#SNAP_SIGNED} comma-separated without header. Without one, the first
 * line that is neither blank nor a {@code #} comment decides: comma-separated when it holds a
 * comma, else separated by spaces and tabs (then {@code #} comments are skipped); it is a header
 * when its src, dst and time fields are all not numbers.
 */
final class PositionalColumnsLoader {
  private PositionalColumnsLoader() {}

  /** How the rows are laid out. */
  private record Layout(DataFormat format, boolean commaSeparated, boolean header) {
    String delimiterName() {
      return commaSeparated ? "comma" : "whitespace";
    }
  }

  static EventStream load(CountingLineReader lines, LoadOptions options) {
    ColumnMapping mapping = options.columns();
    DataFormat given = options.format();
    boolean skipComments = given == null || given == DataFormat.SNAP;
    if (!TextLines.nextContent(lines, skipComments)) {
      throw new DataFormatException(
          lines.source(),
          Math.max(1, lines.lineNumber()),
          "the file has no events; expected rows with the columns of --columns " + mapping);
    }
    LineFields fields = new LineFields(lines);
    Layout layout = layout(lines, fields, given, mapping);
    skipComments = !layout.commaSeparated();
    if (layout.header() && !TextLines.nextContent(lines, skipComments)) {
      throw TextLines.noEvents(lines, "with the columns of --columns " + mapping);
    }
    int[] features = new int[mapping.features().size()];
    for (int j = 0; j < features.length; j++) {
      features[j] = ColumnMapping.index(mapping.features().get(j));
    }
    int src = ColumnMapping.index(mapping.source());
    int dst = ColumnMapping.index(mapping.destination());
    int time = ColumnMapping.index(mapping.time());
    EventTableBuilder events = new EventTableBuilder(lines.source(), layout.format(), options);
    events.inlineFeatures(features.length);
    float[] row = new float[features.length];
    do {
      if (lines.isBlank() || (skipComments && TextLines.isComment(lines))) {
        continue;
      }
      int width = split(fields, layout);
      checkWidth(fields, width, layout, mapping);
      for (int j = 0; j < row.length; j++) {
        row[j] = fields.featureValue(features[j], "features in --columns");
      }
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(src, "src in --columns"),
          fields.nonNegativeInteger(dst, "dst in --columns"),
          fields.finiteNumber(time, "time in --columns"),
          row);
    } while (lines.next());
    return events.finish();
  }

  /** The layout from the given format, or from the first content line (the current line). */
  private static Layout layout(
      CountingLineReader lines, LineFields fields, DataFormat given, ColumnMapping mapping) {
    if (given != null) {
      return switch (given) {
        case CSV -> new Layout(given, true, true);
        case SNAP -> new Layout(given, false, false);
        case SNAP_SIGNED -> new Layout(given, true, false);
        case TGL, DYGLIB, JODIE, BINARY ->
            throw new IllegalArgumentException(given + " has no positional layout");
      };
    }
    boolean comma = false;
    for (int i = lines.start(); i < lines.end() && !comma; i++) {
      comma = lines.bytes()[i] == ',';
    }
    Layout guess = new Layout(comma ? DataFormat.CSV : DataFormat.SNAP, comma, false);
    int width = split(fields, guess);
    int[] roles = {
      ColumnMapping.index(mapping.source()),
      ColumnMapping.index(mapping.destination()),
      ColumnMapping.index(mapping.time())
    };
    boolean header = true;
    for (int column : roles) {
      header &= column < width && !fields.isNumberLiteral(column);
    }
    return new Layout(guess.format(), comma, header);
  }

  private static int split(LineFields fields, Layout layout) {
    return layout.commaSeparated() ? fields.splitOn((byte) ',') : fields.splitOnWhitespace();
  }

  /** Fails naming the line and the key whose position lies beyond the row's last column. */
  private static void checkWidth(
      LineFields fields, int width, Layout layout, ColumnMapping mapping) {
    String[] keys = {"src", "dst", "time"};
    String[] positions = {mapping.source(), mapping.destination(), mapping.time()};
    for (int k = 0; k < keys.length; k++) {
      if (ColumnMapping.index(positions[k]) >= width) {
        throw beyondRow(fields, width, layout, keys[k] + "=" + positions[k]);
      }
    }
    for (String f : mapping.features()) {
      if (ColumnMapping.index(f) >= width) {
        throw beyondRow(fields, width, layout, "features=" + f);
      }
    }
  }

  private static DataFormatException beyondRow(
      LineFields fields, int width, Layout layout, String option) {
    return fields.error(
        "the row has "
            + width
            + " "
            + layout.delimiterName()
            + "-separated column"
            + (width == 1 ? "" : "s")
            + ", but --columns "
            + option
            + " asks for column "
            + option.substring(option.indexOf('=') + 1));
  }
}
