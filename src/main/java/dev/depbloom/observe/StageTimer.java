package dev.depbloom.observe;

import dev.depbloom.tensor.OpRecorder;
import dev.depbloom.tensor.OpRecording;
import dev.depbloom.tensor.OpWork;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock seconds per {@link Stage}, accumulated until {@link #reset()}. Not thread-safe: one
 * per thread of work. When {@link #traceTo traced}, every timed stage is also a span of a trace
 * track. When {@link #recordWork() recording work}, every timed stage also records the tensor
 * operations it runs on the timing thread ({@link OpRecorder}); its times then include the
 * recording's overhead.
 */
public final class StageTimer {
  private final long[] nanos = new long[Stage.values().length];
  private OpWork[] work; // per stage; null: not recording work
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

  /** From now on, each timed stage also records the operators it runs ({@link #work(Stage)}). */
  public StageTimer recordWork() {
    if (work == null) {
      work = new OpWork[nanos.length];
      Arrays.fill(work, OpWork.NONE);
    }
    return this;
  }

  /** Runs {@code work} and charges its time to {@code stage}. */
  public <T> T time(Stage stage, Supplier<T> work) {
    OpRecording ops = this.work != null ? OpRecorder.startOnThisThread() : null;
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      long took = System.nanoTime() - t0;
      if (ops != null) {
        ops.close();
        this.work[stage.ordinal()] = this.work[stage.ordinal()].plus(ops.work());
      }
      record(stage, t0, took);
    }
  }

  /** Runs {@code work} and charges its time to {@code stage}. */
  public void run(Stage stage, Runnable work) {
    time(
        stage,
        () -> {
          work.run();
          return null;
        });
  }

  /** Charges a span measured elsewhere, starting at {@code startNanos}, to {@code stage}. */
  public void record(Stage stage, long startNanos, long durationNanos) {
    nanos[stage.ordinal()] += durationNanos;
    if (trace != null) {
      trace.span(track, stage.key(), startNanos, durationNanos, round);
    }
  }

  /** Adds another timer's seconds (and recorded work) to this one's, stage by stage. */
  public void add(StageTimer other) {
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] += other.nanos[i];
    }
    if (other.work != null) {
      recordWork();
      for (int i = 0; i < work.length; i++) {
        work[i] = work[i].plus(other.work[i]);
      }
    }
  }

  /** The operators {@code stage} ran since the last reset; nothing unless {@link #recordWork()}. */
  public OpWork work(Stage stage) {
    return work == null ? OpWork.NONE : work[stage.ordinal()];
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
    if (work != null) {
      Arrays.fill(work, OpWork.NONE);
    }
  }
}
