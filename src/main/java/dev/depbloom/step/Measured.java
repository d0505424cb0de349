package dev.depbloom.step;

import dev.depbloom.tensor.OpRecorder;
import dev.depbloom.tensor.OpRecording;
import dev.depbloom.tensor.OpWork;
import java.util.function.Supplier;

/**
 * A value with the span that computed it: its start ({@link System#nanoTime()}), its wall-clock
 * nanoseconds and, when recorded, the tensor operations it ran on the measuring thread. The one way
 * the round engine and a task measure work ({@link StageClock#time}, {@code
 * schedule.RoundEvents.measured}). Work that throws is not measured: the exception ends the run.
 */
public record Measured<T>(T value, long startNanos, long nanos, OpWork work) {
  /**
   * Runs {@code work} on this thread, measuring its time and, if {@code recordKernels}, kernels.
   */
  public static <T> Measured<T> of(boolean recordKernels, Supplier<T> work) {
    long t0 = System.nanoTime();
    try (OpRecording r = recordKernels ? OpRecorder.startOnThisThread() : null) {
      T out = work.get();
      OpWork ops = r == null ? OpWork.NONE : r.work();
      return new Measured<>(out, t0, System.nanoTime() - t0, ops);
    }
  }
}
