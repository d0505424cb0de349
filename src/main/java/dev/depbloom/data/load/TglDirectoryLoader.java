package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.FeatureMagnitude;
import dev.depbloom.data.io.LineFields;
import dev.depbloom.data.io.TorchTensorReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A TGL data directory: {@code edges.csv} with header {@code ,src,dst,time,int_roll,ext_roll}
 * (columns found by name; the unnamed first column is the edge id, the row of {@code
 * edge_features.pt}; {@code ext_roll} is the split, 0 train / 1 val / 2 test; {@code int_roll} is
 * ignored), and optionally {@code edge_features.pt} {@code [edges, d]} and {@code node_features.pt}
 * {@code [nodes, d]} (row = node id), both written by {@code torch.save(tensor)}.
 *
 * <p>Reference: Zhou et al., "TGL: A General Framework for Temporal GNN Training on Billion-Scale
 * Graphs", VLDB 2022.
 */
final class TglDirectoryLoader {
  static final String EDGES = "edges.csv";
  static final String EDGE_FEATURES = "edge_features.pt";
  static final String NODE_FEATURES = "node_features.pt";

  private TglDirectoryLoader() {}

  /** Loads {@code path}: the directory, or its {@code edges.csv}. */
  static EventStream load(Path path, LoadOptions options) {
    Path directory = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
    Path edges = Files.isDirectory(path) ? path.resolve(EDGES) : path;
    if (!Files.exists(edges)) {
      throw new InputException(edges + ": no such file; a TGL data directory holds " + EDGES);
    }
    Path edgeFeatures = directory.resolve(EDGE_FEATURES);
    Path nodeFeatures = directory.resolve(NODE_FEATURES);
    EventTableBuilder events = new EventTableBuilder(edges.toString(), DataFormat.TGL, options);
    if (Files.exists(edgeFeatures)) {
      events.featureTable(
          FeatureMagnitude.checked(TorchTensorReader.read(edgeFeatures), edgeFeatures));
    }
    if (Files.exists(nodeFeatures)) {
      events.nodeFeatures(
          FeatureMagnitude.checked(TorchTensorReader.read(nodeFeatures), nodeFeatures));
    }
    try (CountingLineReader lines = TextLines.open(edges)) {
      readEdges(lines, events, Files.exists(edgeFeatures));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return events.finish();
  }

  private static void readEdges(
      CountingLineReader lines, EventTableBuilder events, boolean hasEdgeFeatures) {
    TextLines.requireHeader(lines, ",src,dst,time,int_roll,ext_roll");
    LineFields fields = new LineFields(lines);
    CsvHeader header = CsvHeader.read(fields);
    int src = header.require("src", "source node");
    int dst = header.require("dst", "destination node");
    int time = header.require("time", "event time");
    int edgeId = header.name(0).isEmpty() ? 0 : -1;
    int extRoll = header.indexOf("ext_roll");
    if (hasEdgeFeatures && edgeId < 0) {
      throw new DataFormatException(
          lines.source(),
          header.line(),
          "the header has no unnamed"
              + " first column (the edge id), which "
              + EDGE_FEATURES
              + " needs to find each row");
    }
    if (extRoll >= 0) {
      events.splitLabels();
    }
    while (TextLines.nextContent(lines, false)) {
      fields.splitOn((byte) ',');
      header.checkWidth(fields);
      long featureRow = edgeId >= 0 ? fields.nonNegativeInteger(edgeId, "edge id") : -1;
      int split = extRoll >= 0 ? (int) fields.nonNegativeInteger(extRoll, "ext_roll") : -1;
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(src, "src"),
          fields.nonNegativeInteger(dst, "dst"),
          fields.finiteNumber(time, "time"),
          featureRow,
          split);
    }
    TextLines.requireEvents(lines, events, "edge_id,src,dst,time,int_roll,ext_roll");
  }
}
