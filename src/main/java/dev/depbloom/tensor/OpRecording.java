package dev.depbloom.tensor;

/**
 * One open recording of the operators its thread runs ({@link OpRecorder#startOnThisThread()}).
 * {@link #close()} ends it on the thread that started it. {@link #work()} is what it recorded:
 * while open, every operator call that has ended (all of them, between calls), but not what an open
 * inner recording holds. Recordings on one thread nest: an inner one's work also counts in the
 * outer one when it closes.
 */
public final class OpRecording implements AutoCloseable {
  private final RecordFunctionObserver.ThreadState state;
  private final Thread thread;
  private final OpTally tally = new OpTally();
  private OpWork work; // set on close

  OpRecording(RecordFunctionObserver.ThreadState state, Thread thread) {
    this.state = state;
    this.thread = thread;
  }

  OpTally tally() {
    return tally;
  }

  /** Fixes the work: nothing recorded from now on changes it. */
  void seal() {
    work = tally.toWork();
  }

  /** What was recorded: up to now while open, everything once closed. */
  public OpWork work() {
    return work != null ? work : tally.toWork();
  }

  /**
   * Ends the recording; on its thread, innermost first. Throws if a call could not be recorded (the
   * work would be wrong).
   */
  @Override
  public void close() {
    if (work != null) {
      return;
    }
    if (Thread.currentThread() != thread) {
      throw new IllegalStateException(
          "an op recording started on " + thread.getName() + " must be closed there");
    }
    RecordFunctionObserver.finish(this, state);
  }
}
