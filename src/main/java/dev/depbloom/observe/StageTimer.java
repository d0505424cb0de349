package dev.depbloom.observe;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Wall-clock seconds per {@link Stage}, accumulated until {@link #reset()}: a run's or a logical
 * device's totals. It measures nothing itself; its owner charges it what was measured elsewhere (a
 * task's {@code step.StageClock}, a span of the round engine's). Not thread-safe.
 */
public final class StageTimer {
  private final long[] nanos = new long[Stage.values().length];

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

  public void reset() {
    Arrays.fill(nanos, 0);
  }
}
