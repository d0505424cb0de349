package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.FeatureMagnitude;
import dev.depbloom.data.io.LineFields;
import dev.depbloom.data.io.NpyMatrixReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * DyGLib's processed data: {@code ml_X.csv} with header {@code ,u,i,ts,label,idx} (node ids start
 * at 1, items already offset after users), {@code ml_X.npy} edge features {@code [E + 1, d]} whose
 * row {@code idx} belongs to the event (row 0 is padding), and {@code ml_X_node.npy} node features
 * {@code [N + 1, d]} whose row is the node id (row 0 is padding). The {@code .npy} files are
 * optional; the label is ignored.
 *
 * <p>Reference: Yu et al., "Towards Better Dynamic Graph Learning: New Architecture and Unified
 * Library", NeurIPS 2023.
 */
final class DyglibLoader {
  private DyglibLoader() {}

  /** Loads {@code path}: the {@code ml_X.csv} file, or a directory holding exactly one. */
  static EventStream load(Path path, LoadOptions options) {
    Path csv = Files.isDirectory(path) ? soleCsv(path) : path;
    String name = csv.getFileName().toString();
    String stem = name.endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
    Path edgeFeatures = csv.resolveSibling(stem + ".npy");
    Path nodeFeatures = csv.resolveSibling(stem + "_node.npy");
    EventTableBuilder events = new EventTableBuilder(csv.toString(), DataFormat.DYGLIB, options);
    if (Files.exists(edgeFeatures)) {
      events.featureTable(
          FeatureMagnitude.checked(NpyMatrixReader.read(edgeFeatures), edgeFeatures));
    } else {
      options
          .warnings()
          .accept(
              csv
                  + ": no "
                  + edgeFeatures.getFileName()
                  + " beside it; the events have no edge features");
    }
    if (Files.exists(nodeFeatures)) {
      events.nodeFeatures(
          FeatureMagnitude.checked(NpyMatrixReader.read(nodeFeatures), nodeFeatures));
    }
    try (CountingLineReader lines = TextLines.open(csv)) {
      readEvents(lines, events, Files.exists(edgeFeatures));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return events.finish();
  }

  /** The one {@code ml_*.csv} in {@code directory}. */
  static Path soleCsv(Path directory) {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "ml_*.csv")) {
      files.forEach(found::add);
    } catch (IOException e) {
      throw new InputException("cannot list " + directory + ": " + e.getMessage(), e);
    }
    if (found.size() != 1) {
      throw new InputException(
          directory
              + ": expected exactly one ml_*.csv (DyGLib), found "
              + found.size()
              + "; pass the file itself");
    }
    return found.get(0);
  }

  private static void readEvents(
      CountingLineReader lines, EventTableBuilder events, boolean hasEdgeFeatures) {
    TextLines.requireHeader(lines, ",u,i,ts,label,idx");
    LineFields fields = new LineFields(lines);
    CsvHeader header = CsvHeader.read(fields);
    int src = header.require("u", "source node");
    int dst = header.require("i", "destination node");
    int time = header.require("ts", "event time");
    int idx = hasEdgeFeatures ? header.require("idx", "edge feature row") : -1;
    while (TextLines.nextContent(lines, false)) {
      fields.splitOn((byte) ',');
      header.checkWidth(fields);
      long featureRow = idx >= 0 ? fields.nonNegativeInteger(idx, "idx") : -1;
      events.add(
          lines.lineNumber(),
          fields.nonNegativeInteger(src, "u"),
          fields.nonNegativeInteger(dst, "i"),
          fields.finiteNumber(time, "ts"),
          featureRow,
          -1);
    }
    TextLines.requireEvents(lines, events, "index,u,i,ts,label,idx");
  }
}
