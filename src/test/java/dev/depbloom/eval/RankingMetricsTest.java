package dev.depbloom.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The metrics against values computed independently: scikit-learn's {@code average_precision_score}
 * and {@code roc_auc_score} (what TGL reports) and TGB's MRR formula, by the script {@code
 * src/test/resources/dev/depbloom/eval/ranking_metrics_reference.py}, whose output is pasted here.
 * Its random inputs come from {@link #lcgScores}, which the script reimplements, so both sides
 * score identical arrays.
 */
class RankingMetricsTest {
  private static final double TOLERANCE = 1e-12;
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  @Test
  void binaryCrossEntropyIsTglsLossOnProbabilitiesWithTorchsClamp() {
    // mean(-ln p) over positives + mean(-ln(1 - q)) over negatives, by hand:
    // (-ln 0.9 - ln 0.6) / 2 + (-ln 0.8 - ln 0.5) / 2 = 0.766238435648986
    assertEquals(
        0.766238435648986,
        RankingMetrics.binaryCrossEntropy(new float[] {0.9f, 0.6f}, new float[] {0.2f, 0.5f}),
        1e-7);
    // a probability of exactly 0 for a positive (or 1 for a negative) costs 100, not infinity
    assertEquals(
        100.0, RankingMetrics.binaryCrossEntropy(new float[] {0f}, new float[] {0f}), 1e-9);
    assertEquals(
        50.0, RankingMetrics.binaryCrossEntropy(new float[] {1f}, new float[] {1f, 0f}), 1e-9);
  }

  @Test
  void averagePrecisionAndAucMatchScikitLearnOnHandPickedScores() {
    assertApAuc(
        0.9166666666666665,
        0.888888888888889,
        new float[] {0.9f, 0.8f, 0.3f},
        new float[] {0.7f, 0.2f, 0.1f});
    assertApAuc(0.4, 0.5, new float[] {0.5f, 0.5f}, new float[] {0.5f, 0.5f, 0.5f});
    assertApAuc(
        0.55,
        0.675,
        new float[] {0.75f, 0.5f, 0.5f, 0.25f},
        new float[] {0.5f, 0.25f, 0.25f, 0f, 0.75f});
    assertApAuc(0.41666666666666663, 0.0, new float[] {0.125f, 0.25f}, new float[] {0.75f, 0.875f});
  }

  @Test
  void averagePrecisionAndAucMatchScikitLearnOnSeededScoresWithTies() {
    assertApAuc(0.45483534983534984, 0.4302, lcgScores(1, 50, 8), lcgScores(101, 50, 8));
    assertApAuc(
        0.2790673254090815, 0.47835446065534565, lcgScores(2, 37, 1000), lcgScores(102, 113, 1000));
    assertApAuc(0.5131565582647895, 0.513375, lcgScores(3, 200, 3), lcgScores(103, 200, 3));
  }

  @Test
  void theSortKeyOrdersScoresAsFloatCompareDescendingNegativesAndZerosIncluded() {
    float[] values = {
      -Float.MAX_VALUE,
      -3.5f,
      -1f,
      -Float.MIN_NORMAL,
      -Float.MIN_VALUE,
      -0f,
      0f,
      Float.MIN_VALUE,
      Float.MIN_NORMAL,
      0.25f,
      1f,
      7e20f,
      Float.MAX_VALUE
    };
    for (float a : values) {
      for (float b : values) {
        assertEquals(
            Integer.signum(Float.compare(b, a)),
            Integer.signum(
                Integer.compare(RankingMetrics.descendingKey(a), RankingMetrics.descendingKey(b))),
            a + " vs " + b);
      }
    }
  }

  @Test
  void apAndAucAreUnchangedWhenEveryScoreIsShiftedBelowZero() {
    // logits rather than probabilities: the same ranking (k / 16 - 1 is exact), the same metrics
    float[] positive = lcgScores(2, 37, 20);
    float[] negative = lcgScores(102, 113, 20);
    float[] shiftedPositive = positive.clone();
    float[] shiftedNegative = negative.clone();
    for (int i = 0; i < shiftedPositive.length; i++) {
      shiftedPositive[i] -= 1f;
    }
    for (int i = 0; i < shiftedNegative.length; i++) {
      shiftedNegative[i] -= 1f;
    }
    assertApAuc(
        RankingMetrics.averagePrecision(positive, negative),
        RankingMetrics.rocAuc(positive, negative),
        shiftedPositive,
        shiftedNegative);
  }

  @Test
  void meanReciprocalRankMatchesTgbsFormulaWithTiesCountingHalf() {
    // event 0: 0.5 vs {0.5, 0.75} -> rank 2.5; event 1: 0.25 vs {0.5, 0.25} -> 2.5;
    // event 2: 0.75 vs {0, 1} -> 2. Negatives are negative-major.
    float[] positive = {0.5f, 0.25f, 0.75f};
    float[] negatives = {0.5f, 0.5f, 0f, 0.75f, 0.25f, 1f};
    assertEquals(
        0.43333333333333335, RankingMetrics.meanReciprocalRank(positive, negatives), TOLERANCE);
    assertEquals(
        0.08246971035922404,
        RankingMetrics.meanReciprocalRank(lcgScores(4, 40, 16), lcgScores(104, 40 * 49, 16)),
        TOLERANCE);
    assertEquals(
        0.2623480963480963,
        RankingMetrics.meanReciprocalRank(lcgScores(5, 25, 4), lcgScores(105, 25 * 7, 4)),
        TOLERANCE);
  }

  @Test
  void aNanPositiveScoreIsRejectedPromptlyNamingItsIndex() {
    float[] positive = {0.9f, Float.NaN, 0.3f};
    float[] negative = {0.7f, 0.2f, 0.1f};
    String expected = "positive score 1 is NaN; scores must be finite";
    assertRejected(expected, () -> RankingMetrics.averagePrecision(positive, negative));
    assertRejected(expected, () -> RankingMetrics.rocAuc(positive, negative));
    assertRejected(expected, () -> RankingMetrics.meanReciprocalRank(positive, negative));
  }

  @Test
  void aNanNegativeScoreIsRejectedPromptlyNamingItsIndex() {
    float[] positive = {0.9f, 0.8f, 0.3f};
    float[] negative = {0.7f, 0.2f, Float.NaN};
    String expected = "negative score 2 is NaN; scores must be finite";
    assertRejected(expected, () -> RankingMetrics.averagePrecision(positive, negative));
    assertRejected(expected, () -> RankingMetrics.rocAuc(positive, negative));
    assertRejected(expected, () -> RankingMetrics.meanReciprocalRank(positive, negative));
  }

  @Test
  void infiniteScoresAreRejectedNamingTheirIndexAndSign() {
    float[] positive = {0.9f, 0.8f, 0.3f};
    float[] negative = {0.7f, Float.POSITIVE_INFINITY, 0.1f};
    String expected = "negative score 1 is Infinity; scores must be finite";
    assertRejected(expected, () -> RankingMetrics.averagePrecision(positive, negative));
    assertRejected(expected, () -> RankingMetrics.rocAuc(positive, negative));
    assertRejected(expected, () -> RankingMetrics.meanReciprocalRank(positive, negative));
    float[] minusInfinity = {Float.NEGATIVE_INFINITY, 0.8f};
    assertRejected(
        "positive score 0 is -Infinity; scores must be finite",
        () -> RankingMetrics.rocAuc(minusInfinity, negative));
  }

  /**
   * {@code count} scores {@code level / 16}, {@code level = (state >>> 33) % levels} of a 64-bit
   * LCG (Knuth's MMIX constants) started at {@code seed}; the reference script draws the same.
   */
  static float[] lcgScores(long seed, int count, int levels) {
    float[] out = new float[count];
    long state = seed;
    for (int i = 0; i < count; i++) {
      state = state * 6364136223846793005L + 1442695040888963407L;
      out[i] = ((state >>> 33) % levels) / 16f;
    }
    return out;
  }

  private static void assertApAuc(
      double expectedAp, double expectedAuc, float[] positive, float[] negative) {
    assertEquals(expectedAp, RankingMetrics.averagePrecision(positive, negative), TOLERANCE, "AP");
    assertEquals(expectedAuc, RankingMetrics.rocAuc(positive, negative), TOLERANCE, "AUC");
  }

  /** Fails rather than hangs if the metric loops forever on the bad score. */
  private static void assertRejected(String message, Executable metric) {
    IllegalArgumentException e =
        assertTimeoutPreemptively(
            PROMPTLY, () -> assertThrows(IllegalArgumentException.class, metric));
    assertEquals(message, e.getMessage());
  }
}
