package dev.depbloom.observe;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock seconds per {@link Stage}, accumulated until {@link #reset()}. Not thread-safe: one
 * per thread of work. When {@link #traceTo traced}, every timed stage is also a span of a trace
 * track.
 */
public final class StageTimer {
  private final long[] nanos = new long[Stage.values().length];
  private ChromeTrace trace; // null: not traced
  private int track;
  private int round;

  /**
   * From now on, timed stages are also spans on {@code track} of {@code trace}, in {@code round}.
   */
  public StageTimer traceTo(ChromeTrace trace, int track, int round) {
    this.trace = trace;
    this.track = track;
    this.round = round;
    return this;
  }

  /** Runs {@code work} and charges its time to {@code stage}. */
  public <T> T time(Stage stage, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      record(stage, t0, System.nanoTime() - t0);
    }
  }

  /** Runs {@code work} and charges its time to {@code stage}. */
  public void run(Stage stage, Runnable work) {
    long t0 = System.nanoTime();
    try {
      work.run();
    } finally {
      record(stage, t0, System.nanoTime() - t0);
    }
  }

  /** Charges a span measured elsewhere, starting at {@code startNanos}, to {@code stage}. */
  public void record(Stage stage, long startNanos, long durationNanos) {
    nanos[stage.ordinal()] += durationNanos;
    if (trace != null) {
      trace.span(track, stage.key(), startNanos, durationNanos, round);
    }
  }

  /** Adds another timer's seconds to this one's, stage by stage. */
  public void add(StageTimer other) {
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] += other.nanos[i];
    }
  }

  /** Charges {@code nanos} measured elsewhere to {@code stage}. */
  public void charge(Stage stage, long nanos) {
    this.nanos[stage.ordinal()] += nanos;
  }

  public long nanos(Stage stage) {
    return nanos[stage.ordinal()];
  }

  public double seconds(Stage stage) {
    return nanos[stage.ordinal()] / 1e9;
  }

  /** Seconds per stage, by metrics key, in stage order (stages never used included as 0). */
  public Map<String, Double> secondsByKey() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Stage s : Stage.values()) {
      out.put(s.key(), seconds(s));
    }
    return out;
  }

  public Map<Stage, Double> seconds() {
    Map<Stage, Double> out = new EnumMap<>(Stage.class);
    for (Stage s : Stage.values()) {
      out.put(s, seconds(s));
    }
    return out;
  }

  public void reset() {
    Arrays.fill(nanos, 0);
  }
}
