package dev.depbloom.data.store;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Loads an event store written by {@link EventStoreWriter}. The id, time and split columns are
 * memory-mapped and bulk-copied into the primitive arrays of {@link EventStream}; feature columns
 * stay mapped as {@link MappedFeatureMatrix}, so they cost no heap. The returned stream carries the
 * {@link IngestReport} of the original load.
 *
 * <p>Every problem with the store is a {@link DataFormatException} naming the file at fault: the
 * manifest (missing, other format or version, missing or inconsistent field) or a column file
 * (missing, wrong size, checksum mismatch).
 */
public final class EventStoreReader {
  private EventStoreReader() {}

  /** Reads {@code store}, verifying the checksums of all columns but the features. */
  public static EventStream read(Path store) throws IOException {
    return read(store, ChecksumScope.EVENT_COLUMNS);
  }

  /** Reads {@code store}, verifying the checksums of the columns in {@code scope}. */
  public static EventStream read(Path store, ChecksumScope scope) throws IOException {
    if (!Files.isDirectory(store)) {
      throw new DataFormatException(
          store,
          0,
          Files.exists(store)
              ? "is not a directory; an event store is a directory with "
                  + EventStoreManifest.FILE_NAME
              : "no such event store directory");
    }
    Path manifestFile = store.resolve(EventStoreManifest.FILE_NAME);
    EventStoreManifest manifest = EventStoreManifest.read(manifestFile);
    ColumnLoader columns = new ColumnLoader(store, manifestFile, manifest, scope);
    int e = manifest.eventCount();
    int n = manifest.nodeCount();
    columns.checkCounts();

    int[] src = new int[e];
    columns.map(StoreColumn.SRC, List.of((long) e)).copyTo(src);
    int[] dst = new int[e];
    columns.map(StoreColumn.DST, List.of((long) e)).copyTo(dst);
    double[] time = new double[e];
    columns.map(StoreColumn.TIME, List.of((long) e)).copyTo(time);
    byte[] split = null;
    if (manifest.hasSplitLabels()) {
      split = new byte[e];
      columns.map(StoreColumn.SPLIT, List.of((long) e)).copyTo(split);
    }
    long[] ids = new long[n];
    columns.map(StoreColumn.NODE_IDS, List.of((long) n)).copyTo(ids);
    NodeIdMap nodeIds = NodeIdMap.ofDistinct(ids);
    if (!Arrays.equals(nodeIds.originalIds(), ids)) {
      throw new DataFormatException(
          store.resolve(StoreColumn.NODE_IDS.fileName()),
          0,
          "node ids must be strictly increasing (dense id = rank of the original id)");
    }
    FeatureMatrix edgeFeatures =
        columns.features(StoreColumn.EDGE_FEATURES, e, manifest.edgeFeatureDim());
    FeatureMatrix nodeFeatures =
        columns.features(StoreColumn.NODE_FEATURES, n, manifest.nodeFeatureDim());
    IngestReport ingest = manifest.source().toIngestReport(manifestFile);
    try {
      return new EventStream(
          src, dst, time, split, edgeFeatures, nodeFeatures, nodeIds, manifest.bipartite(), ingest);
    } catch (IllegalArgumentException broken) {
      throw new DataFormatException(
          store, 0, "the columns break an event stream invariant: " + broken.getMessage());
    }
  }

  /** Checks each column's manifest entry against what the manifest's counts imply, then maps it. */
  private record ColumnLoader(
      Path store, Path manifestFile, EventStoreManifest manifest, ChecksumScope scope) {

    void checkCounts() {
      requireField(manifest.eventCount() >= 0, "eventCount", "must not be negative");
      requireField(manifest.nodeCount() >= 0, "nodeCount", "must not be negative");
      requireField(manifest.edgeFeatureDim() >= 0, "edgeFeatureDim", "must not be negative");
      requireField(manifest.nodeFeatureDim() >= 0, "nodeFeatureDim", "must not be negative");
      requireField(manifest.source() != null, "source", "must not be null");
      requireField(manifest.columns() != null, "columns", "must not be null");
      checkPresence(StoreColumn.SPLIT, manifest.hasSplitLabels(), "hasSplitLabels is true");
      checkPresence(StoreColumn.EDGE_FEATURES, manifest.edgeFeatureDim() > 0, "edgeFeatureDim > 0");
      checkPresence(StoreColumn.NODE_FEATURES, manifest.nodeFeatureDim() > 0, "nodeFeatureDim > 0");
    }

    private void checkPresence(StoreColumn column, boolean expected, String condition) {
      boolean present = manifest.columns().containsKey(column.key());
      if (present != expected) {
        throw new DataFormatException(
            manifestFile,
            0,
            "field columns."
                + column.key()
                + (expected ? " is missing" : " is present")
                + " but must be present exactly when "
                + condition);
      }
    }

    FeatureMatrix features(StoreColumn column, int rows, int dim) throws IOException {
      if (dim == 0) {
        return FeatureMatrix.empty(rows);
      }
      long rowBytes = (long) dim * Float.BYTES;
      MappedColumn mapped =
          map(column, List.of((long) rows, (long) dim), MappedColumn.alignedChunkBytes(rowBytes));
      return new MappedFeatureMatrix(mapped, rows, dim);
    }

    MappedColumn map(StoreColumn column, List<Long> shape) throws IOException {
      return map(column, shape, MappedColumn.alignedChunkBytes(column.elementBytes()));
    }

    private MappedColumn map(StoreColumn column, List<Long> shape, long chunkBytes)
        throws IOException {
      EventStoreManifest.Column entry = manifest.columns().get(column.key());
      String field = "columns." + column.key();
      requireField(entry != null, field, "is missing");
      String file = entry.file();
      requireField(
          file != null
              && !file.isEmpty()
              && Path.of(file).getNameCount() == 1
              && !file.equals(".."),
          field + ".file",
          "must name a file inside the store directory, got " + file);
      requireField(
          column.dtype().equals(entry.dtype()),
          field + ".dtype",
          "is " + entry.dtype() + ", expected " + column.dtype());
      requireField(
          EventStoreManifest.LITTLE_ENDIAN.equals(entry.byteOrder()),
          field + ".byteOrder",
          "is " + entry.byteOrder() + ", expected " + EventStoreManifest.LITTLE_ENDIAN);
      requireField(
          shape.equals(entry.shape()),
          field + ".shape",
          "is " + entry.shape() + ", expected " + shape + " from the manifest's counts");
      requireField(
          entry.crc32c() != null && entry.crc32c().matches("[0-9a-f]{8}"),
          field + ".crc32c",
          "must be 8 lower-case hex digits, got " + entry.crc32c());
      Path path = store.resolve(file);
      MappedColumn mapped =
          MappedColumn.map(
              path, entry.expectedBytes(column), chunkBytes, column.dtype() + " " + shape);
      if (!column.isFeature() || scope == ChecksumScope.ALL_COLUMNS) {
        String actual = mapped.crc32c();
        if (!actual.equals(entry.crc32c())) {
          throw new DataFormatException(
              path,
              0,
              "corrupt: CRC32C of the file is " + actual + ", the manifest says " + entry.crc32c());
        }
      }
      return mapped;
    }

    private void requireField(boolean ok, String field, String problem) {
      if (!ok) {
        throw new DataFormatException(manifestFile, 0, "field " + field + " " + problem);
      }
    }
  }
}
