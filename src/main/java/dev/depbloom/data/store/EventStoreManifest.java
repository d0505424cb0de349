package dev.depbloom.data.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.IngestReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code manifest.json} of an event store: what the store holds and, per column, its file,
 * element type, shape, byte order and CRC32C checksum. Columns are keyed by {@link
 * StoreColumn#key()}; optional columns are absent when the stream lacks them.
 *
 * @param format always {@link #FORMAT}
 * @param version the layout version, {@link #VERSION} for stores this build writes
 * @param source the ingest report of the load the events came from
 */
public record EventStoreManifest(
    String format,
    int version,
    int eventCount,
    int nodeCount,
    boolean bipartite,
    int edgeFeatureDim,
    int nodeFeatureDim,
    boolean hasSplitLabels,
    Source source,
    Map<String, Column> columns) {

  public static final String FORMAT = "depbloom-event-store";
  public static final int VERSION = 1;
  public static final String FILE_NAME = "manifest.json";
  public static final String LITTLE_ENDIAN = "little";

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  /**
   * The fields of the {@link IngestReport} of the load the store was converted from.
   *
   * @param path the file that was loaded (or a description of the generator that made the events)
   * @param format the {@link DataFormat} name it was read as, or null for generated events
   */
  public record Source(String path, String format, long outOfOrder, long rowsMoved) {
    static Source of(IngestReport report) {
      String format = report.format() == null ? null : report.format().name();
      return new Source(report.source(), format, report.outOfOrder(), report.rowsMoved());
    }

    IngestReport toIngestReport(Path manifest) {
      DataFormat parsed = null;
      if (format != null) {
        try {
          parsed = DataFormat.valueOf(format);
        } catch (IllegalArgumentException e) {
          throw new DataFormatException(
              manifest, 0, "field source.format: unknown format '" + format + "'");
        }
      }
      return new IngestReport(path, parsed, outOfOrder, rowsMoved);
    }
  }

  /**
   * One column file.
   *
   * @param file file name inside the store directory
   * @param dtype element type in NumPy's spelling ({@code int32}, {@code float64}, ...)
   * @param shape {@code [E]}, {@code [N]}, {@code [E, de]} or {@code [N, dn]}
   * @param byteOrder always {@link #LITTLE_ENDIAN}
   * @param crc32c CRC32C of the file's bytes, 8 lower-case hex digits
   */
  public record Column(
      String file, String dtype, List<Long> shape, String byteOrder, String crc32c) {
    /** Bytes the file must have: the product of the shape times the element size. */
    long expectedBytes(StoreColumn column) {
      long n = column.elementBytes();
      for (long s : shape) {
        n = Math.multiplyExact(n, s);
      }
      return n;
    }
  }

  /** Writes the manifest as indented JSON and syncs it to disk. */
  void write(Path file) throws IOException {
    ByteBuffer json = ByteBuffer.wrap(JSON.writeValueAsBytes(this));
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (json.hasRemaining()) {
        channel.write(json);
      }
      channel.force(true);
    }
  }

  /**
   * Reads and checks the format name and version of a manifest; the fields are checked for
   * presence, their values by {@link EventStoreReader}.
   *
   * @throws DataFormatException naming the manifest when it is missing, not JSON, of another format
   *     or version, or lacks a field
   */
  static EventStoreManifest read(Path file) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw new DataFormatException(
          file, 0, "missing: an event store directory holds a " + FILE_NAME);
    } catch (JsonProcessingException e) {
      long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new DataFormatException(file, line, "not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new DataFormatException(file, 0, "expected a JSON object");
    }
    String format = root.path("format").asText(null);
    if (!FORMAT.equals(format)) {
      throw new DataFormatException(
          file, 0, "field format is '" + format + "', expected '" + FORMAT + "'");
    }
    int version = root.path("version").asInt(-1);
    if (version != VERSION) {
      throw new DataFormatException(
          file,
          0,
          "field version is "
              + root.path("version")
              + ": this build reads event store version "
              + VERSION);
    }
    try {
      return JSON.treeToValue(root, EventStoreManifest.class);
    } catch (JsonMappingException e) {
      throw new DataFormatException(
          file, 0, "field " + fieldPath(e) + ": " + e.getOriginalMessage());
    }
  }

  private static String fieldPath(JsonMappingException e) {
    return e.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."));
  }
}
