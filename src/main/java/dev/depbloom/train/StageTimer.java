package dev.depbloom.train;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock seconds per {@link Stage}, accumulated until {@link #reset()}. One per worker thread.
 */
public final class StageTimer {
  private final long[] nanos = new long[Stage.values().length];

  /** Runs {@code work} and charges its time to {@code stage}. */
  public <T> T time(Stage stage, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      nanos[stage.ordinal()] += System.nanoTime() - t0;
    }
  }

  /** Runs {@code work} and charges its time to {@code stage}. */
  public void run(Stage stage, Runnable work) {
    long t0 = System.nanoTime();
    try {
      work.run();
    } finally {
      nanos[stage.ordinal()] += System.nanoTime() - t0;
    }
  }

  /** Charges {@code nanos} measured elsewhere to {@code stage}. */
  public void charge(Stage stage, long nanos) {
    this.nanos[stage.ordinal()] += nanos;
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
    java.util.Arrays.fill(nanos, 0);
  }
}
