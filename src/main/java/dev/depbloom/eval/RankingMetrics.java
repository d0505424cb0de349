package dev.depbloom.eval;

import java.util.Arrays;

/**
 * Link-prediction metrics over positive and negative scores, with scikit-learn's definitions (TGL
 * computes them with scikit-learn): average precision as {@code sum_n (R_n - R_{n-1}) P_n} over
 * distinct score thresholds, ROC-AUC as the probability that a positive outranks a negative (ties
 * count one half), and the mean reciprocal rank of each positive among its own negatives, a tie
 * counting as the average of the optimistic and pessimistic rank (TGB's convention).
 *
 * <p>Every score must be finite: a NaN or infinite score (a diverged model) is rejected with an
 * {@link IllegalArgumentException} naming the score, rather than ranked (NaN equals nothing, so
 * ties could not be grouped).
 */
public final class RankingMetrics {
  private RankingMetrics() {}

  /** Average precision of {@code positive} scores against {@code negative} scores. */
  public static double averagePrecision(float[] positive, float[] negative) {
    requireFinite(positive, negative);
    int n = positive.length + negative.length;
    if (positive.length == 0) {
      return Double.NaN;
    }
    int[] order = order(positive, negative);
    double ap = 0;
    int truePositives = 0;
    int seen = 0;
    double previousRecall = 0;
    for (int i = 0; i < n; ) {
      float score = score(order[i], positive, negative);
      int j = i;
      while (j < n && score(order[j], positive, negative) == score) {
        if (order[j] < positive.length) {
          truePositives++;
        }
        seen++;
        j++;
      }
      double recall = (double) truePositives / positive.length;
      double precision = (double) truePositives / seen;
      ap += (recall - previousRecall) * precision;
      previousRecall = recall;
      i = j;
    }
    return ap;
  }

  /**
   * TGL's loss on predicted probabilities: the mean of {@code -ln p} over the positives plus the
   * mean of {@code -ln (1 - q)} over the negatives, each logarithm clamped at -100 as torch's
   * {@code BCELoss} clamps it (a float probability of exactly 0 or 1 stays finite).
   */
  public static double binaryCrossEntropy(float[] positive, float[] negative) {
    requireFinite(positive, negative);
    return meanNegLog(positive, false) + meanNegLog(negative, true);
  }

  private static double meanNegLog(float[] p, boolean complement) {
    if (p.length == 0) {
      return 0;
    }
    double sum = 0;
    for (float v : p) {
      double x = complement ? 1.0 - v : v;
      sum -= Math.max(Math.log(x), -100.0);
    }
    return sum / p.length;
  }

  /** ROC-AUC: P(positive score > negative score) + P(tie) / 2, by ranks in O(n log n). */
  public static double rocAuc(float[] positive, float[] negative) {
    requireFinite(positive, negative);
    if (positive.length == 0 || negative.length == 0) {
      return Double.NaN;
    }
    int n = positive.length + negative.length;
    int[] order = order(positive, negative); // descending
    double positiveRankSum = 0; // ranks ascending from 1, ties averaged
    for (int i = 0; i < n; ) {
      float score = score(order[i], positive, negative);
      int j = i;
      int positivesInTie = 0;
      while (j < n && score(order[j], positive, negative) == score) {
        if (order[j] < positive.length) {
          positivesInTie++;
        }
        j++;
      }
      // descending positions i..j-1 are ascending ranks n-j+1 .. n-i
      double averageRank = ((n - j + 1) + (n - i)) / 2.0;
      positiveRankSum += positivesInTie * averageRank;
      i = j;
    }
    double p = positive.length;
    double u = positiveRankSum - p * (p + 1) / 2;
    return u / (p * negative.length);
  }

  /**
   * Mean reciprocal rank: {@code negatives[j * B + i]} is negative j of positive i (the
   * negative-major layout of the batch roots).
   */
  public static double meanReciprocalRank(float[] positive, float[] negatives) {
    requireFinite(positive, negatives);
    int b = positive.length;
    if (b == 0 || negatives.length % b != 0) {
      throw new IllegalArgumentException("negatives must be a whole multiple of the positives");
    }
    int k = negatives.length / b;
    double sum = 0;
    for (int i = 0; i < b; i++) {
      int greater = 0;
      int equal = 0;
      for (int j = 0; j < k; j++) {
        float s = negatives[j * b + i];
        if (s > positive[i]) {
          greater++;
        } else if (s == positive[i]) {
          equal++;
        }
      }
      double rank = 1 + greater + equal / 2.0;
      sum += 1 / rank;
    }
    return sum / b;
  }

  /** Rejects the first non-finite score, naming its array and index. */
  private static void requireFinite(float[] positive, float[] negative) {
    requireFinite(positive, "positive");
    requireFinite(negative, "negative");
  }

  private static void requireFinite(float[] scores, String kind) {
    for (int i = 0; i < scores.length; i++) {
      if (!Float.isFinite(scores[i])) {
        throw new IllegalArgumentException(
            kind + " score " + i + " is " + scores[i] + "; scores must be finite");
      }
    }
  }

  /**
   * Indices (positives first, then negatives) sorted by descending score, ties by ascending index.
   * Sorted as primitive keys (the score's bits made monotonic, above the index): a sort of boxed
   * indices with a comparator cost the test's metrics more than their arithmetic, and its merge
   * routines were compiled again and again by the JIT during the test.
   */
  private static int[] order(float[] positive, float[] negative) {
    int n = positive.length + negative.length;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = ((long) descendingKey(score(i, positive, negative)) << 32) | i;
    }
    Arrays.sort(keys);
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      idx[i] = (int) keys[i]; // the low 32 bits: the index
    }
    return idx;
  }

  /**
   * An int whose signed order is the descending order of finite {@code score}s, as {@link
   * Float#compare} orders them (so -0.0 follows 0.0, adjacent to it: the tie loops group them).
   */
  static int descendingKey(float score) {
    int bits = Float.floatToIntBits(score);
    int ascending = bits < 0 ? bits ^ 0x7fffffff : bits; // signed order = Float.compare's
    return ~ascending; // reversed: ~ maps x to -x - 1, a strictly decreasing bijection
  }

  private static float score(int i, float[] positive, float[] negative) {
    return i < positive.length ? positive[i] : negative[i - positive.length];
  }
}
