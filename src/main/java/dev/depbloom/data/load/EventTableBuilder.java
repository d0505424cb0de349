package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import java.util.Arrays;

/**
 * Accumulates the events of one file, in file order, in growing primitive columns (no object per
 * event), and turns them into an {@link EventStream}: node ids remapped to dense {@code 0..N-1} by
 * rank ({@link NodeIdMap#ofDistinct}), rows stably sorted by time, features and split labels
 * permuted with their rows, node feature rows permuted through the id map, bipartite detected.
 *
 * <p>Edge features come either inline (a row of {@code dim} values per event, from a CSV) or as a
 * row id per event into a feature table (TGL's edge id, DyGLib's {@code idx}). Every {@code add}
 * takes the 1-based line of the event so that errors, including the first out-of-order row under
 * {@link LoadOptions#strict()}, name it.
 */
public final class EventTableBuilder {
  /** EventStream columns are Java arrays indexed by int. */
  static final int MAX_EVENTS = Integer.MAX_VALUE - 8;

  private final String source;
  private final DataFormat format;
  private final LoadOptions options;

  private long[] src = new long[1024]; // [capacity], original ids
  private long[] dst = new long[1024]; // [capacity], original ids
  private double[] time = new double[1024]; // [capacity]
  private int size;

  private int inlineDim; // > 0: features[size * inlineDim]
  private float[] features;
  private FeatureMatrix featureTable; // non-null: featureRows[size]
  private int[] featureRows;
  private byte[] splitLabels; // non-null when events carry ext_roll
  private FeatureMatrix nodeFeaturesByOriginalId;

  private long outOfOrder;
  private long firstOutOfOrderLine;

  public EventTableBuilder(String source, DataFormat format, LoadOptions options) {
    this.source = source;
    this.format = format;
    this.options = options;
  }

  /** Events will carry {@code dim} feature values each; call before the first event. */
  public void inlineFeatures(int dim) {
    requireNoEvents();
    this.inlineDim = dim;
    this.features = dim > 0 ? new float[1024 * dim] : null;
  }

  /** Events will carry a row id into {@code table}; call before the first event. */
  public void featureTable(FeatureMatrix table) {
    requireNoEvents();
    this.featureTable = table;
    this.featureRows = new int[1024];
  }

  /** Events will carry a split label (0 train, 1 val, 2 test); call before the first event. */
  public void splitLabels() {
    requireNoEvents();
    this.splitLabels = new byte[1024];
  }

  /** Node features whose row {@code k} belongs to original node id {@code k}. */
  public void nodeFeatures(FeatureMatrix byOriginalId) {
    this.nodeFeaturesByOriginalId = byOriginalId;
  }

  public int edgeFeatureDim() {
    return featureTable != null ? featureTable.dim() : inlineDim;
  }

  public int size() {
    return size;
  }

  /** Adds an event without features or split label. */
  public void add(long line, long source, long destination, double eventTime) {
    requireShape(inlineDim == 0 && featureTable == null && splitLabels == null);
    append(line, source, destination, eventTime);
  }

  /** Adds an event whose inline features are {@code row[0 .. dim)}. */
  public void add(long line, long source, long destination, double eventTime, float[] row) {
    requireShape(featureTable == null && splitLabels == null);
    append(line, source, destination, eventTime);
    if (inlineDim > 0) {
      if ((long) size * inlineDim > MAX_EVENTS) {
        throw new DataFormatException(
            this.source,
            line,
            "edge features exceed " + MAX_EVENTS + " values, the most one Java array holds");
      }
      if (features.length < size * inlineDim) {
        features = Arrays.copyOf(features, (int) Math.min(MAX_EVENTS, features.length * 3L / 2));
      }
      System.arraycopy(row, 0, features, (size - 1) * inlineDim, inlineDim);
    }
  }

  /**
   * Adds an event with a row id into the feature table (ignored without a table) and a split label
   * (ignored unless {@link #splitLabels()} was called).
   */
  public void add(
      long line, long source, long destination, double eventTime, long featureRow, int splitLabel) {
    requireShape(inlineDim == 0);
    append(line, source, destination, eventTime);
    int i = size - 1;
    if (featureTable != null) {
      if (featureRow < 0 || featureRow >= featureTable.rows()) {
        throw new DataFormatException(
            this.source,
            line,
            "edge feature row "
                + featureRow
                + " is outside the feature table's rows 0.."
                + (featureTable.rows() - 1));
      }
      featureRows[i] = (int) featureRow;
    }
    if (splitLabels != null) { // monotone in file order while sorted; finish() checks the rest
      if (splitLabel < 0 || splitLabel > 2) {
        throw new DataFormatException(
            this.source,
            line,
            "split label (ext_roll) " + splitLabel + " is not 0 (train), 1 (val) or 2 (test)");
      }
      if (i > 0 && outOfOrder == 0 && splitLabel < splitLabels[i - 1]) {
        throw new DataFormatException(
            this.source,
            line,
            "split label (ext_roll) "
                + splitLabel
                + " follows "
                + splitLabels[i - 1]
                + "; expected train, then val, then test rows");
      }
      splitLabels[i] = (byte) splitLabel;
    }
  }

  /** Adds {@code offset} to every destination id so far (JODIE's separate item id space). */
  public void offsetDestinations(long offset) {
    for (int i = 0; i < size; i++) {
      dst[i] += offset;
    }
  }

  private void append(long line, long source, long destination, double eventTime) {
    if (size == src.length) {
      grow(line);
    }
    if (size > 0 && eventTime < time[size - 1]) {
      if (options.strict()) {
        throw new DataFormatException(
            this.source,
            line,
            "time "
                + eventTime
                + " is earlier than the previous row's "
                + time[size - 1]
                + "; --strict expects rows sorted by time (without it they are sorted stably)");
      }
      if (outOfOrder++ == 0) {
        firstOutOfOrderLine = line;
      }
    }
    src[size] = source;
    dst[size] = destination;
    time[size] = eventTime;
    size++;
  }

  private void grow(long line) {
    if (size >= MAX_EVENTS) {
      throw new DataFormatException(
          source, line, "has more than " + MAX_EVENTS + " events, the most one stream holds");
    }
    int capacity = (int) Math.min(MAX_EVENTS, src.length * 3L / 2);
    src = Arrays.copyOf(src, capacity);
    dst = Arrays.copyOf(dst, capacity);
    time = Arrays.copyOf(time, capacity);
    if (featureRows != null) {
      featureRows = Arrays.copyOf(featureRows, capacity);
    }
    if (splitLabels != null) {
      splitLabels = Arrays.copyOf(splitLabels, capacity);
    }
  }

  private static void requireShape(boolean matches) {
    if (!matches) {
      throw new IllegalStateException("this add does not match the columns the builder was given");
    }
  }

  private void requireNoEvents() {
    if (size > 0) {
      throw new IllegalStateException("configure the builder before adding events");
    }
  }

  /** The stream: dense ids, sorted by time, features and labels following their rows. */
  public EventStream finish() {
    if (size == 0) {
      throw new DataFormatException(source, 0, "holds no events");
    }
    int[] order = outOfOrder == 0 ? null : NaturalMergeTimeSort.stableOrder(time, size);
    long rowsMoved = 0;
    if (order != null) {
      for (int i = 0; i < size; i++) {
        rowsMoved += order[i] != i ? 1 : 0;
      }
      warnUnsorted(rowsMoved);
    }
    DenseIdRemap remap = DenseIdRemap.of(src, dst, size);
    NodeIdMap ids = remap.nodeIds();
    int[] denseSrc = new int[size];
    int[] denseDst = new int[size];
    double[] sortedTime = new double[size];
    for (int i = 0; i < size; i++) {
      int row = order == null ? i : order[i];
      denseSrc[i] = remap.denseId(src[row]);
      denseDst[i] = remap.denseId(dst[row]);
      sortedTime[i] = time[row];
    }
    byte[] labels = sortedSplitLabels(order);
    boolean bipartite =
        options.bipartite() != null
            ? options.bipartite()
            : !EventStream.sharesNodes(denseSrc, denseDst, ids.size());
    IngestReport report = new IngestReport(source, format, outOfOrder, rowsMoved);
    return new EventStream(
        denseSrc,
        denseDst,
        sortedTime,
        labels,
        edgeFeatures(order),
        nodeFeatures(ids),
        ids,
        bipartite,
        report);
  }

  private void warnUnsorted(long rowsMoved) {
    options
        .warnings()
        .accept(
            source
                + ": "
                + outOfOrder
                + " row(s) are earlier than the row"
                + " before them (first at line "
                + firstOutOfOrderLine
                + "); sorted stably by time, "
                + rowsMoved
                + " row(s) moved (--strict rejects unsorted input)");
  }

  private byte[] sortedSplitLabels(int[] order) {
    if (splitLabels == null) {
      return null;
    }
    byte[] out = new byte[size];
    for (int i = 0; i < size; i++) {
      out[i] = splitLabels[order == null ? i : order[i]];
      if (i > 0 && out[i] < out[i - 1]) {
        throw new DataFormatException(
            source,
            0,
            "after sorting by time, the event at time "
                + time[order == null ? i : order[i]]
                + " has split label (ext_roll) "
                + out[i]
                + " after "
                + out[i - 1]
                + "; expected train, then val, then test events in time order");
      }
    }
    return out;
  }

  private FeatureMatrix edgeFeatures(int[] order) {
    if (featureTable != null) {
      FeatureRowGather gather = new FeatureRowGather(featureTable, size);
      for (int i = 0; i < size; i++) {
        gather.take(featureRows[order == null ? i : order[i]]);
      }
      return gather.result();
    }
    if (inlineDim == 0) {
      return null;
    }
    float[] out = new float[size * inlineDim];
    for (int i = 0; i < size; i++) {
      int row = order == null ? i : order[i];
      System.arraycopy(features, row * inlineDim, out, i * inlineDim, inlineDim);
    }
    return new HeapFeatureMatrix(out, size, inlineDim);
  }

  private FeatureMatrix nodeFeatures(NodeIdMap ids) {
    if (nodeFeaturesByOriginalId == null) {
      return null;
    }
    long rows = nodeFeaturesByOriginalId.rows();
    long maxId = ids.originalId(ids.size() - 1);
    if (maxId >= rows) {
      throw new DataFormatException(
          source,
          0,
          "node id "
              + maxId
              + " has no node feature row;"
              + " the node features have rows 0.."
              + (rows - 1));
    }
    FeatureRowGather gather = new FeatureRowGather(nodeFeaturesByOriginalId, ids.size());
    for (int v = 0; v < ids.size(); v++) {
      gather.take(ids.originalId(v));
    }
    return gather.result();
  }
}
