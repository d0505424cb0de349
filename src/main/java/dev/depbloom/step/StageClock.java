package dev.depbloom.step;

import dev.depbloom.observe.Stage;
import dev.depbloom.tensor.OpWork;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * What one task measured of its own stages as it ran them: per {@link Stage} its wall-clock
 * nanoseconds and, when it records kernels, the tensor operations it ran on the timing thread
 * ({@link dev.depbloom.tensor.OpRecorder}; its times then include the recording's overhead), and
 * every timed span in the order it ran. Plain data: the round engine hands it to whoever listens
 * once the task is done ({@code schedule.RoundEvent.TaskRan}); it knows no timer, trace or
 * projection. Written by the one thread that runs the task.
 */
public final class StageClock {
  /** One timed span: {@code stage} ran from {@code startNanos} ({@link System#nanoTime()}). */
  public interface SpanVisitor {
    void span(Stage stage, long startNanos, long nanos);
  }

  private static final Stage[] STAGES = Stage.values();
  private final long[] nanos = new long[STAGES.length];
  private final OpWork[] work; // per stage; null: kernels not recorded
  private long[] spans = new long[3 * 8]; // stage ordinal, start, duration
  private int size;

  /** A clock that records kernels with its times when {@code recordKernels}. */
  public StageClock(boolean recordKernels) {
    if (recordKernels) {
      work = new OpWork[STAGES.length];
      Arrays.fill(work, OpWork.NONE);
    } else {
      work = null;
    }
  }

  /** Runs {@code task} and charges its time (and its kernels, if recorded) to {@code stage}. */
  public <T> T time(Stage stage, Supplier<T> task) {
    Measured<T> m = Measured.of(work != null, task);
    int i = stage.ordinal();
    if (work != null) {
      work[i] = work[i].plus(m.work());
    }
    nanos[i] += m.nanos();
    if (size + 3 > spans.length) {
      spans = Arrays.copyOf(spans, spans.length * 2);
    }
    spans[size++] = i;
    spans[size++] = m.startNanos();
    spans[size++] = m.nanos();
    return m.value();
  }

  /** Whether the kernels are recorded with the times. */
  public boolean recordsKernels() {
    return work != null;
  }

  /** Nanoseconds charged to {@code stage}. */
  public long nanos(Stage stage) {
    return nanos[stage.ordinal()];
  }

  /** The operators {@code stage} ran; {@link OpWork#NONE} unless kernels are recorded. */
  public OpWork work(Stage stage) {
    return work == null ? OpWork.NONE : work[stage.ordinal()];
  }

  /** Visits every timed span, in the order they ran. */
  public void forEachSpan(SpanVisitor visitor) {
    for (int i = 0; i < size; i += 3) {
      visitor.span(STAGES[(int) spans[i]], spans[i + 1], spans[i + 2]);
    }
  }
}
