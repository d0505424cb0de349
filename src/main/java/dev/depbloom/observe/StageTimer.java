package dev.depbloom.observe;

import dev.depbloom.tensor.OpWork;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Wall-clock seconds per {@link Stage}, and the tensor work charged with them, accumulated until
 * {@link #reset()}: a run's or a logical device's totals. It measures nothing itself; its owner
 * charges it what was measured elsewhere (a task's {@code step.StageClock}, a span of the round
 * engine's). Not thread-safe.
 */
public final class StageTimer {
  private final long[] nanos = new long[Stage.values().length];
  private final OpWork[] work = new OpWork[Stage.values().length];

  public StageTimer() {
    Arrays.fill(work, OpWork.NONE);
  }

  /** Charges {@code nanos} measured elsewhere to {@code stage}. */
  public void charge(Stage stage, long nanos) {
    this.nanos[stage.ordinal()] += nanos;
  }

  /** Charges {@code nanos} and the tensor work {@code ops} measured elsewhere to {@code stage}. */
  public void charge(Stage stage, long nanos, OpWork ops) {
    charge(stage, nanos);
    if (ops != OpWork.NONE) {
      work[stage.ordinal()] = work[stage.ordinal()].plus(ops);
    }
  }

  /** Adds another timer's seconds and work to this one's, stage by stage. */
  public void add(StageTimer other) {
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] += other.nanos[i];
      if (other.work[i] != OpWork.NONE) {
        work[i] = work[i].plus(other.work[i]);
      }
    }
  }

  /** The tensor work charged to {@code stage} since the last reset. */
  public OpWork work(Stage stage) {
    return work[stage.ordinal()];
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
    Arrays.fill(work, OpWork.NONE);
  }
}
