package dev.depbloom.api;

import dev.depbloom.data.InputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;

/**
 * The write-ahead log of a served stream: every observed batch, as it arrived, written and forced
 * to disk ({@link FileChannel#force}) before the batch is published, so that a batch a caller saw
 * applied survives a crash of the process ({@code kill -9}) or of the machine. At load the
 * predictor restores its snapshot, then replays the journal's batches that follow it; a snapshot
 * empties the journal.
 *
 * <p>Layout: a header line {@code depbloom-journal 1 <run fingerprint>\n}, then records {@code [int
 * length][payload][int crc32 of payload]}, the payload {@code [long version before][byte
 * scored][int events][int feature width]} and per event {@code [long src][long dst][double
 * time][byte has features][float x width]}, big-endian. A record cut short or failing its checksum
 * can only be the last, one whose write the crash interrupted and that was never acknowledged: it
 * is dropped, and the journal is cut back to the records before it.
 *
 * <p>Versions never repeat for different states: a batch is journaled with the version it follows,
 * before it is published, and a failed batch is cut back out before anything else is written.
 */
final class EventJournal implements AutoCloseable {
  private static final String MAGIC = "depbloom-journal 1 ";

  /** One journaled batch: the version it follows, whether it was scored, its events. */
  record Entry(long versionBefore, boolean scored, List<Interaction> events) {}

  private final Path file;
  private final FileChannel channel;
  private final long headerBytes;
  private final List<Entry> entries; // read at open; replayed once by the predictor

  private EventJournal(Path file, FileChannel channel, long headerBytes, List<Entry> entries) {
    this.file = file;
    this.channel = channel;
    this.headerBytes = headerBytes;
    this.entries = entries;
  }

  /**
   * Opens (or creates) the journal of the run with data fingerprint {@code fingerprint}, reading
   * its batches; a journal of another run is an input error naming the file.
   */
  static EventJournal open(Path file, String fingerprint) {
    byte[] header = (MAGIC + fingerprint + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      FileChannel ch =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      try {
        if (ch.size() == 0) {
          ch.write(ByteBuffer.wrap(header));
          ch.force(true);
          return new EventJournal(file, ch, header.length, new ArrayList<>());
        }
        byte[] all = Files.readAllBytes(file);
        if (all.length < header.length
            || !Arrays.equals(all, 0, header.length, header, 0, header.length)) {
          throw new InputException(
              file
                  + ": not this run's journal (expected the header '"
                  + MAGIC
                  + fingerprint
                  + "'); start with --fresh to discard it");
        }
        List<Entry> entries = new ArrayList<>();
        long end = read(all, header.length, entries);
        if (end < all.length) {
          ch.truncate(end); // a record the crash cut short: never acknowledged
          ch.force(true);
        }
        ch.position(end);
        return new EventJournal(file, ch, header.length, entries);
      } catch (RuntimeException | IOException e) {
        ch.close();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the journal " + file, e);
    }
  }

  /** Reads the whole records from {@code at}; returns where the last whole record ends. */
  private static long read(byte[] all, int at, List<Entry> out) {
    int pos = at;
    while (pos + 4 <= all.length) {
      int length = ByteBuffer.wrap(all, pos, 4).getInt();
      if (length < 0 || (long) pos + 8 + length > all.length) {
        break;
      }
      CRC32 crc = new CRC32();
      crc.update(all, pos + 4, length);
      if ((int) crc.getValue() != ByteBuffer.wrap(all, pos + 4 + length, 4).getInt()) {
        break;
      }
      try {
        out.add(decode(new DataInputStream(new ByteArrayInputStream(all, pos + 4, length))));
      } catch (IOException e) {
        break;
      }
      pos += 8 + length;
    }
    return pos;
  }

  private static Entry decode(DataInputStream in) throws IOException {
    long version = in.readLong();
    boolean scored = in.readByte() != 0;
    int n = in.readInt();
    int dim = in.readInt();
    if (n < 0 || dim < 0) {
      throw new EOFException();
    }
    List<Interaction> events = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long src = in.readLong();
      long dst = in.readLong();
      double time = in.readDouble();
      float[] f = null;
      if (in.readByte() != 0) {
        f = new float[dim];
        for (int j = 0; j < dim; j++) {
          f[j] = in.readFloat();
        }
      }
      events.add(new Interaction(src, dst, time, f));
    }
    return new Entry(version, scored, events);
  }

  /** Applies one journaled batch again: its events, and whether they were scored first. */
  @FunctionalInterface
  interface Replay {
    void apply(List<Interaction> events, boolean scored);
  }

  /**
   * Applies the entries that follow the state's {@code version} (read before each entry) through
   * {@code replay}, as they were applied before; those before it (held by the snapshot) are
   * skipped. Returns how many were applied.
   *
   * @throws InputException where the journal continues a later version than the state's
   */
  int replay(LongSupplier version, Replay replay) {
    int applied = 0;
    for (Entry e : entries()) {
      long v = version.getAsLong();
      if (e.versionBefore() < v) {
        continue;
      }
      if (e.versionBefore() > v) {
        throw new InputException(
            file()
                + ": the journal continues version "
                + e.versionBefore()
                + " but the state is at version "
                + v
                + " (the journal of another snapshot?); start with --fresh to discard both");
      }
      replay.apply(e.events(), e.scored());
      applied++;
    }
    return applied;
  }

  /** The batches the journal held when it was opened, oldest first. */
  List<Entry> entries() {
    return entries;
  }

  /** Where the journal is. */
  Path file() {
    return file;
  }

  /**
   * Appends a batch and forces it to disk; returns the journal's length before it, for {@link
   * #cutBack}. On an I/O error the journal is cut back and the error thrown.
   */
  long append(long versionBefore, boolean scored, List<Interaction> events, int dim) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(0); // length, set below
      out.writeLong(versionBefore);
      out.writeByte(scored ? 1 : 0);
      out.writeInt(events.size());
      out.writeInt(dim);
      for (Interaction e : events) {
        out.writeLong(e.source());
        out.writeLong(e.destination());
        out.writeDouble(e.time());
        out.writeByte(e.features() == null ? 0 : 1);
        if (e.features() != null) {
          for (float x : e.features()) {
            out.writeFloat(x);
          }
        }
      }
      out.writeInt(0); // checksum, set below
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteBuffer record = ByteBuffer.wrap(bytes.toByteArray());
    int length = record.capacity() - 8;
    record.putInt(0, length);
    CRC32 crc = new CRC32();
    crc.update(record.array(), 4, length);
    record.putInt(4 + length, (int) crc.getValue());
    long before;
    try {
      before = channel.position();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the journal " + file, e);
    }
    try {
      while (record.hasRemaining()) {
        channel.write(record);
      }
      channel.force(false);
      return before;
    } catch (IOException e) {
      cutBack(before);
      throw new UncheckedIOException("cannot write the journal " + file, e);
    }
  }

  /** Cuts the journal back to {@code length} bytes: a batch journaled but not applied. */
  void cutBack(long length) {
    try {
      channel.truncate(length);
      channel.position(length);
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot cut back the journal " + file, e);
    }
  }

  /** Empties the journal (a snapshot now holds every batch it had). */
  void clear() {
    cutBack(headerBytes);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the journal " + file, e);
    }
  }
}
