package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.LineFields;

/**
 * SNAP's header-less edge lists. {@link DataFormat#SNAP}: {@code src dst time [weight...]}
 * separated by spaces or tabs, {@code #} comment lines skipped, the extra numeric columns become
 * edge features (every row as wide as the first). {@link DataFormat#SNAP_SIGNED}: {@code
 * src,dst,rating,time}, the rating becomes a 1-dim edge feature.
 */
final class HeaderlessEdgeListLoader {
  private HeaderlessEdgeListLoader() {}

  static EventStream snap(CountingLineReader lines, LoadOptions options) {
    String expected = "\"src dst time [weight...]\" (whitespace-separated, no header)";
    if (!TextLines.nextContent(lines, true)) {
      throw new DataFormatException(
          lines.source(),
          Math.max(1, lines.lineNumber()),
          "the file has no events; expected lines " + expected);
    }
    LineFields fields = new LineFields(lines);
    int width = fields.splitOnWhitespace();
    if (width < 3) {
      throw fields.error("expected at least 3 columns " + expected + ", found " + width);
    }
    EventTableBuilder events = new EventTableBuilder(lines.source(), DataFormat.SNAP, options);
    events.inlineFeatures(width - 3);
    float[] row = new float[width - 3];
    do {
      if (TextLines.isComment(lines)) {
        continue;
      }
      int n = fields.splitOnWhitespace();
      if (n != width) {
        if (n == 0) {
          continue; // blank line
        }
        throw fields.error(
            "expected "
                + width
                + " whitespace-separated columns like the first"
                + " row (src dst time"
                + (width > 3 ? " and " + (width - 3) + " weight(s)" : "")
                + "), found "
                + n);
      }
      for (int j = 3; j < width; j++) {
        if (!fields.isNumberLiteral(j)) {
          throw fields.error(
              "column "
                  + (j + 1)
                  + " (weight "
                  + (j - 2)
                  + ") holds \""
                  + fields.text(j)
                  + "\", not a number; to read src, dst and time and skip columns that are not"
                  + " numbers, give the columns by 1-based position, e.g."
                  + " --columns src=1,dst=2,time=3");
        }
        row[j - 3] = fields.featureValue(j, "weight " + (j - 2));
      }
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(0, "src"),
          fields.nonNegativeInteger(1, "dst"),
          fields.finiteNumber(2, "time"),
          row);
    } while (lines.next());
    return events.finish();
  }

  static EventStream signed(CountingLineReader lines, LoadOptions options) {
    String expected = "\"src,dst,rating,time\" (no header)";
    if (!TextLines.nextContent(lines, false)) {
      throw new DataFormatException(
          lines.source(),
          Math.max(1, lines.lineNumber()),
          "the file is empty; expected lines " + expected);
    }
    LineFields fields = new LineFields(lines);
    EventTableBuilder events =
        new EventTableBuilder(lines.source(), DataFormat.SNAP_SIGNED, options);
    events.inlineFeatures(1);
    float[] rating = new float[1];
    do {
      if (lines.isBlank()) {
        continue;
      }
      int n = fields.splitOn((byte) ',');
      if (n != 4) {
        throw fields.error(
            "expected 4 comma-separated columns "
                + expected
                + ", found "
                + n
                + "; for another layout give the columns by 1-based position, e.g."
                + " --columns src=1,dst=2,time=4");
      }
      rating[0] = fields.featureValue(2, "rating");
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(0, "src"),
          fields.nonNegativeInteger(1, "dst"),
          fields.finiteNumber(3, "time"),
          rating);
    } while (lines.next());
    return events.finish();
  }
}
