package dev.depbloom.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** When a whole pass's scores rank nothing, and how the error names the pass. */
class DegenerateScoreCheckTest {
  private static final EventStream EVENTS = TinyStreams.random(30, 200, 0, 5);

  /** Batch {@code index} of events {@code [start, start + n)}, one negative each. */
  private static Batch batch(int index, int start, int n) {
    int[] negatives = new int[n];
    Arrays.fill(negatives, 1);
    return Batch.of(EVENTS, index, start, start + n, negatives);
  }

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    Arrays.fill(a, v);
    return a;
  }

  @Test
  void aPassWhoseScoresAreAllEqualIsNamedWithTheValueAndItsBatches() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    c.add(batch(0, 100, 10), filled(10, 0.5f), filled(10, 0.5f));
    c.add(batch(1, 110, 5), filled(5, 0.5f), filled(5, 0.5f));
    assertEquals(
        "every one of its 30 scores (15 events and their negatives) is 0.5: the model scores"
            + " every pair alike, so AP and AUC would only count ties",
        c.problem());
    assertEquals("batches 0-1 (events 100-115)", c.where());
  }

  @Test
  void aPassWhoseScoresAreAllExactlyZeroOrOneIsNamedWithTheirCounts() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    float[] positive = filled(12, 1f);
    positive[3] = 0f;
    c.add(batch(4, 40, 12), positive, filled(12, 0f));
    assertEquals(
        "every one of its 24 scores (12 events and their negatives) is exactly 0 or 1 (11 ones,"
            + " 13 zeros): the sigmoid saturated, so AP and AUC would only count ties",
        c.problem());
    assertEquals("batch 4 (events 40-52)", c.where());
  }

  /** The error names what a user can change: the rate, with the flag and a tenth of it. */
  @Test
  void theLikelyCausesNameTheRateAndTheFlagToLowerIt() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    c.add(batch(0, 0, 10), filled(10, 0.5f), filled(10, 0.5f));
    assertEquals(
        c.problem()
            + " (likely a learning rate too high for this data: train.lr is 0.01, try --lr 0.001;"
            + " or node or edge features on a huge scale: scale them to about unit size)",
        c.problem(0.01));
    assertTrue(c.problem(1e-4).contains("train.lr is 0.0001, try --lr 0.00001;"));
    DegenerateScoreCheck fine = new DegenerateScoreCheck();
    fine.add(batch(0, 0, 10), filled(10, 0.7f), filled(10, 0.4f));
    assertNull(fine.problem(0.01));
  }

  /** One batch may tie (cold-start endpoints share an embedding); the pass as a whole does not. */
  @Test
  void aTiedBatchInAPassThatRanksIsFine() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    c.add(batch(0, 0, 10), filled(10, 0.5f), filled(10, 0.5f));
    c.add(batch(1, 10, 10), filled(10, 0.7f), filled(10, 0.4f));
    assertNull(c.problem());
  }

  /** One score off the rails of 0 and 1, even the float just below 1, keeps a ranking. */
  @Test
  void oneUnsaturatedScoreIsEnough() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    float[] positive = filled(20, 1f);
    positive[7] = Math.nextDown(1f);
    c.add(batch(0, 0, 20), positive, filled(20, 0f));
    assertNull(c.problem());
  }

  @Test
  void passesOfFewerThanTenEventsAreNotJudged() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    c.add(batch(0, 0, DegenerateScoreCheck.MIN_EVENTS - 1), filled(9, 0.5f), filled(9, 0.5f));
    assertNull(c.problem());
    assertNull(new DegenerateScoreCheck().problem());
  }

  /** Zero and negative zero are one value: a tie. */
  @Test
  void negativeZeroEqualsZero() {
    DegenerateScoreCheck c = new DegenerateScoreCheck();
    c.add(batch(0, 0, 10), filled(10, 0f), filled(10, -0f));
    assertEquals(
        "every one of its 20 scores (10 events and their negatives) is 0.0: the model scores"
            + " every pair alike, so AP and AUC would only count ties",
        c.problem());
  }
}
