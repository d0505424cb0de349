package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.LineFields;

/**
 * JODIE's CSV: header {@code
 * user_id,item_id,timestamp,state_label,comma_separated_list_of_features}, rows {@code
 * u,i,ts,label,f1,...,fk} with the same {@code k} on every row (the features become edge features;
 * the state label is ignored).
 *
 * <p>Users and items are separate id spaces in JODIE's raw files (both start at 0). When the two id
 * ranges overlap, item ids are offset by {@code max user id + 1}, so node ids are the users' ids
 * followed by the offset items' ids; the graph is then bipartite. Files whose items are already
 * offset are left as they are.
 *
 * <p>Reference: Kumar, Zhang, Leskovec, "Predicting Dynamic Embedding Trajectory in Temporal
 * Interaction Networks", KDD 2019.
 */
final class JodieCsvLoader {
  static final String HEADER = "user_id,item_id,timestamp,state_label";

  private JodieCsvLoader() {}

  static EventStream load(CountingLineReader lines, LoadOptions options) {
    TextLines.requireHeader(lines, HEADER + ",comma_separated_list_of_features");
    LineFields fields = new LineFields(lines);
    CsvHeader header = CsvHeader.read(fields);
    if (!String.join(",", header.names()).startsWith(HEADER)) {
      throw fields.error(
          "expected the JODIE header "
              + HEADER
              + ",comma_separated_list_of_features, found "
              + lines.text());
    }
    EventTableBuilder events = new EventTableBuilder(lines.source(), DataFormat.JODIE, options);
    int width = -1;
    float[] row = null;
    long maxUser = -1;
    long minUser = Long.MAX_VALUE;
    long maxItem = -1;
    long minItem = Long.MAX_VALUE;
    while (TextLines.nextContent(lines, false)) {
      int n = fields.splitOn((byte) ',');
      if (width < 0) {
        if (n < 4) {
          throw fields.error(
              "expected at least 4 comma-separated columns (user_id, item_id,"
                  + " timestamp, state_label), found "
                  + n);
        }
        width = n;
        events.inlineFeatures(width - 4);
        row = new float[width - 4];
      } else if (n != width) {
        throw fields.error(
            "expected "
                + width
                + " comma-separated columns like the first row (4"
                + " + "
                + (width - 4)
                + " features), found "
                + n);
      }
      long user = fields.nonNegativeInteger(0, "user_id");
      long item = fields.nonNegativeInteger(1, "item_id");
      double time = fields.finiteNumber(2, "timestamp");
      fields.finiteNumber(3, "state_label");
      for (int j = 4; j < width; j++) {
        row[j - 4] = fields.featureValue(j, "feature " + (j - 3));
      }
      events.add(lines.lineNumber(), user, item, time, row);
      maxUser = Math.max(maxUser, user);
      minUser = Math.min(minUser, user);
      maxItem = Math.max(maxItem, item);
      minItem = Math.min(minItem, item);
    }
    TextLines.requireEvents(lines, events, "u,i,ts,label,f1,...,fk");
    if (minItem <= maxUser && minUser <= maxItem) {
      events.offsetDestinations(maxUser + 1);
    }
    return events.finish();
  }
}
