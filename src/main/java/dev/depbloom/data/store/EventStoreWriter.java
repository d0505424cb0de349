package dev.depbloom.data.store;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Writes an {@link EventStream} as an event store directory (see {@link EventStoreManifest}).
 *
 * <p>All files are written into a hidden sibling directory of the target and synced to disk; only
 * then is it renamed to the target. A failure at any point deletes the sibling, so the target is
 * either absent, the old store, or the complete new one, never a partial store.
 */
public final class EventStoreWriter {
  private EventStoreWriter() {}

  /** Writes {@code events} to {@code out}, which must not exist or be an empty directory. */
  public static EventStoreManifest write(EventStream events, Path out) throws IOException {
    return write(events, out, false);
  }

  /**
   * Writes {@code events} to {@code out}. With {@code replaceExisting}, an existing event store at
   * {@code out} is replaced (only after the new one is complete); a non-empty directory that is not
   * an event store is never replaced.
   *
   * @return the manifest written
   * @throws InputException when {@code out} may not be written
   */
  public static EventStoreManifest write(EventStream events, Path out, boolean replaceExisting)
      throws IOException {
    Path target = out.toAbsolutePath().normalize();
    checkTarget(target, replaceExisting);
    Path parent = target.getParent();
    Files.createDirectories(parent);
    Path staging = parent.resolve(hiddenSibling(target, "writing"));
    Files.createDirectory(staging);
    try {
      EventStoreManifest manifest = writeColumns(events, staging);
      manifest.write(staging.resolve(EventStoreManifest.FILE_NAME));
      syncDirectory(staging);
      publish(staging, target);
      return manifest;
    } catch (IOException | RuntimeException | Error failure) {
      try {
        deleteRecursively(staging);
      } catch (IOException cleanup) {
        failure.addSuppressed(cleanup);
      }
      throw failure;
    }
  }

  /**
   * Fails fast, before any work, when {@code out} may not be written: it is a file, or a non-empty
   * directory and either {@code replaceExisting} is false or it is not an event store.
   */
  public static void checkTarget(Path out, boolean replaceExisting) throws IOException {
    if (!Files.exists(out)) {
      return;
    }
    if (!Files.isDirectory(out)) {
      throw new InputException(out + ": exists and is not a directory; an event store is one");
    }
    if (isEmptyDirectory(out)) {
      return;
    }
    if (!replaceExisting) {
      throw new InputException(
          out + ": exists and is not empty; refusing to overwrite it (--force replaces a store)");
    }
    if (!Files.exists(out.resolve(EventStoreManifest.FILE_NAME))) {
      throw new InputException(
          out
              + ": is not an event store (no "
              + EventStoreManifest.FILE_NAME
              + "); refusing to replace it even with --force");
    }
  }

  private static EventStoreManifest writeColumns(EventStream events, Path dir) throws IOException {
    long e = events.eventCount();
    long n = events.nodeCount();
    Map<String, EventStoreManifest.Column> columns = new LinkedHashMap<>();
    columns.put("src", column(dir, StoreColumn.SRC, List.of(e), w -> w.putInts(events.sources())));
    columns.put(
        "dst", column(dir, StoreColumn.DST, List.of(e), w -> w.putInts(events.destinations())));
    columns.put(
        "time", column(dir, StoreColumn.TIME, List.of(e), w -> w.putDoubles(events.times())));
    byte[] split = events.splitLabels();
    if (split != null) {
      columns.put("split", column(dir, StoreColumn.SPLIT, List.of(e), w -> w.putBytes(split)));
    }
    long[] ids = events.nodeIds().originalIds();
    columns.put("node_ids", column(dir, StoreColumn.NODE_IDS, List.of(n), w -> w.putLongs(ids)));
    FeatureMatrix edge = events.edgeFeatures();
    if (edge.dim() > 0) {
      columns.put(
          "edge_features",
          column(
              dir, StoreColumn.EDGE_FEATURES, List.of(e, (long) edge.dim()), w -> w.putRows(edge)));
    }
    FeatureMatrix node = events.nodeFeatures();
    if (node.dim() > 0) {
      columns.put(
          "node_features",
          column(
              dir, StoreColumn.NODE_FEATURES, List.of(n, (long) node.dim()), w -> w.putRows(node)));
    }
    return new EventStoreManifest(
        EventStoreManifest.FORMAT,
        EventStoreManifest.VERSION,
        events.eventCount(),
        events.nodeCount(),
        events.bipartite(),
        edge.dim(),
        node.dim(),
        split != null,
        EventStoreManifest.Source.of(events.ingest()),
        columns);
  }

  private interface ColumnContent {
    void writeTo(ChecksummedColumnWriter writer) throws IOException;
  }

  private static EventStoreManifest.Column column(
      Path dir, StoreColumn column, List<Long> shape, ColumnContent content) throws IOException {
    try (ChecksummedColumnWriter writer =
        new ChecksummedColumnWriter(dir.resolve(column.fileName()))) {
      content.writeTo(writer);
      String crc = writer.finish();
      return new EventStoreManifest.Column(
          column.fileName(), column.dtype(), shape, EventStoreManifest.LITTLE_ENDIAN, crc);
    }
  }

  /** Renames the complete staging directory to {@code target}, replacing what was there. */
  private static void publish(Path staging, Path target) throws IOException {
    if (!Files.exists(target)) {
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    } else if (isEmptyDirectory(target)) {
      Files.delete(target);
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    } else {
      Path old = target.resolveSibling(hiddenSibling(target, "replaced"));
      Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException | RuntimeException e) {
        Files.move(old, target, StandardCopyOption.ATOMIC_MOVE);
        throw e;
      }
      deleteRecursively(old);
    }
    syncDirectory(target.getParent());
  }

  private static String hiddenSibling(Path target, String purpose) {
    return "."
        + target.getFileName()
        + "."
        + purpose
        + "-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
  }

  private static boolean isEmptyDirectory(Path dir) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      return !entries.iterator().hasNext();
    }
  }

  /** Makes a directory's entries (new files, renames) durable; a no-op where unsupported. */
  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot open or sync a directory; the renames are still atomic there.
    }
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
