package dev.depbloom.api;

import dev.depbloom.data.InputException;
import dev.depbloom.memory.NodeMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A served stream's state in one file, so that a restarted service continues exactly: which run and
 * start it belongs to, the version and newest time, the node ids observed events added, the
 * observed events (dense ids, run times, edge features: the neighbor index is rebuilt from them),
 * and memory, mailbox and their times for the nodes in use. Little-endian, sections in the order
 * {@link #write} writes them, a CRC32C of everything before it at the end; written to a temporary
 * file and renamed into place, so a crash never leaves a half-written snapshot. docs/serving.md
 * gives the layout.
 */
final class SnapshotFile {
  static final String MAGIC = "DEPBLOOM-SERVE-SNAPSHOT";
  static final int FORMAT = 1;

  private SnapshotFile() {}

  /** The state of the memory rows {@code 0..rows-1} of one view. */
  record MemoryRows(
      int rows,
      float[] memory,
      float[] mailbox,
      double[] lastUpdate,
      double[] mailTimes,
      int[] nextSlots) {}

  /** What a snapshot holds. */
  record Contents(
      String fingerprint,
      int bestEpoch,
      String model,
      int historyEvents,
      int nodes,
      int edgeDim,
      long version,
      double newestTime,
      long[] addedIds,
      int[] src,
      int[] dst,
      double[] time,
      float[] features,
      MemoryRows memory) {}

  /** Writes {@code state} to {@code file} (atomically); call while nothing is observed. */
  static long write(ServingState state, Path file) {
    LoadedRun run = state.run;
    ServedEvents events = state.events;
    int n = events.observedCount();
    int dim = events.dim();
    int[] src = new int[n];
    int[] dst = new int[n];
    double[] time = new double[n];
    float[] features = new float[n * dim];
    for (int i = 0; i < n; i++) {
      src[i] = events.source(i);
      dst[i] = events.destination(i);
      time[i] = events.time(i);
      System.arraycopy(events.features(i), 0, features, i * dim, dim);
    }
    long[] added = state.ids.addedIds();
    MemoryRows memory =
        state.memory.isNone() ? null : rows(state.memory.view(0), run.nodeCount() + added.length);
    Contents c =
        new Contents(
            run.saved.fingerprint(),
            run.bestEpoch,
            run.config.name(),
            events.baseCount(),
            run.nodeCount(),
            dim,
            state.version(),
            state.newestTime(),
            added,
            src,
            dst,
            time,
            features,
            memory);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      long bytes = encode(c, tmp);
      try (FileChannel written = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        written.force(true); // on disk before the rename: a journal emptied after it loses nothing
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write snapshot " + file, e);
    }
  }

  private static MemoryRows rows(NodeMemory m, int rows) {
    int slots = m.mailboxSize();
    return new MemoryRows(
        rows,
        m.values(rows, false),
        m.values(rows, true),
        java.util.Arrays.copyOf(m.lastUpdateTimes(), rows),
        java.util.Arrays.copyOf(m.mailTimeValues(), rows * slots),
        java.util.Arrays.copyOf(m.nextSlots(), rows));
  }

  private static long encode(Contents c, Path tmp) throws IOException {
    try (SnapshotStreams.Out out = new SnapshotStreams.Out(tmp)) {
      out.string(MAGIC);
      out.ints(FORMAT);
      out.string(c.fingerprint());
      out.ints(c.bestEpoch());
      out.string(c.model());
      out.ints(c.historyEvents(), c.nodes(), c.edgeDim());
      out.longs(c.version());
      out.doubles(c.newestTime());
      out.ints(c.addedIds().length);
      out.longs(c.addedIds());
      out.ints(c.src().length);
      out.ints(c.src());
      out.ints(c.dst());
      out.doubles(c.time());
      out.floats(c.features());
      MemoryRows m = c.memory();
      out.ints(m == null ? -1 : m.rows());
      if (m != null) {
        out.ints(m.memory().length, m.mailbox().length, m.mailTimes().length);
        out.floats(m.memory());
        out.floats(m.mailbox());
        out.doubles(m.lastUpdate());
        out.doubles(m.mailTimes());
        out.ints(m.nextSlots());
      }
      return out.finish();
    }
  }

  /** Reads a snapshot; a damaged or foreign file is an input error naming it. */
  static Contents read(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new InputException(file + ": snapshot not found");
    }
    try (SnapshotStreams.In in = new SnapshotStreams.In(file)) {
      if (!MAGIC.equals(in.string()) || in.ints(1)[0] != FORMAT) {
        throw new InputException(
            file + ": not a depbloom serving snapshot (format " + FORMAT + ")");
      }
      String fingerprint = in.string();
      int epoch = in.ints(1)[0];
      String model = in.string();
      int[] shape = in.ints(3);
      long version = in.longs(1)[0];
      double newest = in.doubles(1)[0];
      long[] added = in.longs(in.ints(1)[0]);
      int n = in.ints(1)[0];
      int[] src = in.ints(n);
      int[] dst = in.ints(n);
      double[] time = in.doubles(n);
      float[] features = in.floats(n * shape[2]);
      int rows = in.ints(1)[0];
      MemoryRows memory = null;
      if (rows >= 0) {
        int[] sizes = in.ints(3);
        memory =
            new MemoryRows(
                rows,
                in.floats(sizes[0]),
                in.floats(sizes[1]),
                in.doubles(rows),
                in.doubles(sizes[2]),
                in.ints(rows));
      }
      in.checkCrc();
      return new Contents(
          fingerprint,
          epoch,
          model,
          shape[0],
          shape[1],
          shape[2],
          version,
          newest,
          added,
          src,
          dst,
          time,
          features,
          memory);
    } catch (IOException | RuntimeException e) {
      if (e instanceof InputException ie) {
        throw ie;
      }
      throw new InputException(file + ": damaged snapshot (" + e.getMessage() + ")", e);
    }
  }
}
