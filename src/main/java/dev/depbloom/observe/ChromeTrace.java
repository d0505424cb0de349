package dev.depbloom.observe;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A timeline in the Chrome trace event format, which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open: one track per logical device (track {@code d} is "device d") and one for
 * the coordinator (sampling order, gradient sum, optimizer step, commits), each span a stage with
 * its round number. Spans are kept as a few longs each and written at the end, so tracing costs a
 * synchronized append per stage.
 */
public final class ChromeTrace {
  /** The coordinator's track. */
  public static final int COORDINATOR = -1;

  private final long origin = System.nanoTime();
  private final List<String> names = new ArrayList<>();
  private long[] spans = new long[5 * 4096]; // track, name, start, duration, round
  private int size;

  /** Records a span of {@code name} on {@code track}; times are {@link System#nanoTime()}. */
  public synchronized void span(
      int track, String name, long startNanos, long durationNanos, int round) {
    if (size + 5 > spans.length) {
      spans = Arrays.copyOf(spans, spans.length * 2);
    }
    int n = names.indexOf(name);
    if (n < 0) {
      names.add(name);
      n = names.size() - 1;
    }
    spans[size++] = track;
    spans[size++] = n;
    spans[size++] = startNanos - origin;
    spans[size++] = durationNanos;
    spans[size++] = round;
  }

  /** Number of spans recorded. */
  public synchronized int spanCount() {
    return size / 5;
  }

  /** Writes the trace atomically (a temporary file renamed into place). */
  public synchronized void write(Path file) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (JsonGenerator g = new JsonFactory().createGenerator(tmp.toFile(), JsonEncoding.UTF8)) {
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ms");
        g.writeArrayFieldStart("traceEvents");
        TreeSet<Long> tracks = new TreeSet<>();
        for (int i = 0; i < size; i += 5) {
          tracks.add(spans[i]);
        }
        for (long track : tracks) {
          g.writeStartObject();
          g.writeStringField("name", "thread_name");
          g.writeStringField("ph", "M");
          g.writeNumberField("pid", 1);
          g.writeNumberField("tid", tid(track));
          g.writeObjectFieldStart("args");
          g.writeStringField("name", track == COORDINATOR ? "coordinator" : "device " + track);
          g.writeEndObject();
          g.writeEndObject();
        }
        for (int i = 0; i < size; i += 5) {
          g.writeStartObject();
          g.writeStringField("name", names.get((int) spans[i + 1]));
          g.writeStringField("ph", "X");
          g.writeNumberField("pid", 1);
          g.writeNumberField("tid", tid(spans[i]));
          g.writeNumberField("ts", spans[i + 2] / 1000.0);
          g.writeNumberField("dur", spans[i + 3] / 1000.0);
          g.writeObjectFieldStart("args");
          g.writeNumberField("round", spans[i + 4]);
          g.writeEndObject();
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write trace " + file, e);
    }
  }

  /** Coordinator first, then device d as thread d + 1. */
  private static long tid(long track) {
    return track + 1;
  }
}
