package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.step.TrainingDivergedException;
import java.util.Locale;

/**
 * Whether a whole scoring pass (a validation, or one protocol of the test) ranked anything. A pass
 * is degenerate when every score it computed, positives and negatives alike, is one and the same
 * float, or when every score is exactly 0 or 1 (the sigmoid saturated: a float sigmoid is exactly 1
 * above a logit of about 17 and exactly 0 below about -104). Either way AP and AUC only count ties
 * (all equal gives AP 0.5 exactly) and the run would report numbers as if it had trained; a
 * finite-loss run gets there from parameters or features of extreme size (e.g. a learning rate that
 * makes the first optimizer step move every parameter by hundreds).
 *
 * <p>The rule is over the whole pass, never one batch: a batch can tie legitimately, since
 * endpoints without history (no memory yet, no features, no neighbors before the query time) all
 * get the same embedding, so a batch of such cold-start events, or the small last batch of a pass,
 * may score every pair alike, and a sharply trained model may put a batch's few scores at 1. Over a
 * pass, some event reads a node with history and the negatives are drawn from all nodes, so a
 * working model never scores every pair alike nor saturates every score. A pass of fewer than
 * {@link #MIN_EVENTS} events is not judged: that few may all be cold-start events.
 */
final class DegenerateScoreCheck {
  /** Passes with fewer events are not judged. */
  static final int MIN_EVENTS = 10;

  private int firstBatch = -1;
  private int lastBatch;
  private int firstEvent;
  private int endEvent;
  private long events;
  private long scores;
  private float first;
  private boolean allEqual = true;
  private long ones;
  private long zeros;

  /** Adds a scored batch: its positives and every negative scored with them. */
  void add(Batch batch, float[] positive, float[] negative) {
    if (firstBatch < 0) {
      firstBatch = batch.index();
      firstEvent = batch.start();
      first = positive.length > 0 ? positive[0] : negative.length > 0 ? negative[0] : 0f;
    }
    lastBatch = batch.index();
    endEvent = batch.start() + batch.size();
    events += positive.length;
    count(positive);
    count(negative);
  }

  private void count(float[] s) {
    for (float v : s) {
      allEqual &= v == first;
      if (v == 1f) {
        ones++;
      } else if (v == 0f) {
        zeros++;
      }
    }
    scores += s.length;
  }

  /**
   * What is wrong with the pass, for an error after its {@link #where()}, with the likely causes a
   * user can act on; null when nothing. {@code learningRate} is the run's configured {@code
   * train.lr}.
   */
  String problem(double learningRate) {
    String what = problem();
    return what == null ? null : what + likelyCauses(learningRate);
  }

  /**
   * The causes seen to end here, most likely first: a rate at which Adam's first steps carry the
   * model to one score for every pair (on data with little to learn, a rate that trains on one
   * CPU's kernels can do this on another's), or inputs so large that the sigmoid saturates.
   */
  static String likelyCauses(double learningRate) {
    return String.format(
        Locale.ROOT,
        " (likely a learning rate too high for this data: train.lr is %s, try --lr %s; or node"
            + " or edge features on a huge scale: scale them to about unit size)",
        plain(learningRate),
        plain(learningRate / 10));
  }

  private static String plain(double x) {
    return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
  }

  /** What is wrong with the pass, without its causes; null when nothing. */
  String problem() {
    if (events < MIN_EVENTS) {
      return null;
    }
    String all =
        String.format(
            Locale.ROOT,
            "every one of its %,d scores (%,d events and their negatives) is ",
            scores,
            events);
    if (allEqual) {
      return all
          + first
          + ": the model scores every pair alike, so AP and AUC would only count ties";
    }
    if (ones + zeros == scores) {
      return all
          + String.format(
              Locale.ROOT,
              "exactly 0 or 1 (%,d ones, %,d zeros): the sigmoid saturated, so AP and AUC would"
                  + " only count ties",
              ones,
              zeros);
    }
    return null;
  }

  /** {@code "batches 0-7 (events 210-255)"}, or {@code "batch 0 (...)"} for one batch. */
  String where() {
    return (firstBatch == lastBatch
            ? "batch " + firstBatch
            : "batches " + firstBatch + "-" + lastBatch)
        + " ("
        + TrainingDivergedException.events(firstEvent, endEvent)
        + ")";
  }
}
