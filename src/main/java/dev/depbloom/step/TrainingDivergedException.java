package dev.depbloom.step;

import java.util.Locale;

/**
 * A run stopped because a training loss or a score is NaN or infinite, or because a whole
 * validation or test pass scored every pair alike (all scores equal, or all exactly 0 or 1). The
 * message is one line for the user: where it happened (epoch, round or batches, events), what went
 * wrong, and which checkpoint is the last good one. The checkpoints already written are kept.
 */
public final class TrainingDivergedException extends RuntimeException {
  public TrainingDivergedException(String message) {
    super(message);
  }

  public TrainingDivergedException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * The message for a failure in epoch {@code epoch}: {@code where} (e.g. "round 17 (events
   * 10,200-10,800)") and {@code what} (e.g. "training loss is NaN"), then the last good checkpoint,
   * that of the epoch before (every completed epoch writes one, and the last is never pruned).
   */
  public static TrainingDivergedException inEpoch(int epoch, String where, String what) {
    String checkpoint =
        epoch > 1
            ? "the last good checkpoint is checkpoints/epoch-" + (epoch - 1) + ".pt"
            : "no epoch completed, so there is no checkpoint to go back to";
    return new TrainingDivergedException(
        "epoch " + epoch + ", " + where + ": " + what + "; " + checkpoint);
  }

  /** {@code "events 10,200-10,800"}: the half-open range {@code [first, end)}. */
  public static String events(int first, int end) {
    return String.format(Locale.ROOT, "events %,d-%,d", first, end);
  }
}
