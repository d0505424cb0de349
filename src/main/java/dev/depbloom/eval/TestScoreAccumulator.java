package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.step.BatchScores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One test protocol's metrics, batch by batch, from batches laid out by {@link TestNegatives}: AP
 * and ROC-AUC of each batch against its first negative, averaged over batches (TGL's way); the mean
 * reciprocal rank against the ranking negatives over all events (when there are any); AP of the
 * events with an endpoint unseen in training, pooled over the test set.
 */
public final class TestScoreAccumulator {
  private final boolean[] seenInTraining; // [N]
  private final int[] sources;
  private final int[] destinations;
  private final boolean ranking;
  private final List<Double> aps = new ArrayList<>(); // per batch
  private final List<Double> aucs = new ArrayList<>();
  private double reciprocalRankSum;
  private long events;
  private float[] newPositive = new float[64];
  private float[] newNegative = new float[64];
  private int newCount;
  private final DegenerateScoreCheck degenerate = new DegenerateScoreCheck();

  /**
   * @param seenInTraining per node, whether it is an endpoint of a training event
   * @param ranking whether batches carry ranking negatives (MRR is computed)
   */
  public TestScoreAccumulator(
      boolean[] seenInTraining, int[] sources, int[] destinations, boolean ranking) {
    this.seenInTraining = seenInTraining;
    this.sources = sources;
    this.destinations = destinations;
    this.ranking = ranking;
  }

  /**
   * Adds a scored batch.
   *
   * @throws IllegalArgumentException if a score is NaN or infinite ({@link RankingMetrics})
   */
  public void add(Batch batch, BatchScores scores) {
    int b = batch.size();
    float[] positive = scores.positive();
    float[] first = scores.firstNegative();
    degenerate.add(batch, positive, scores.negative());
    aps.add(RankingMetrics.averagePrecision(positive, first));
    aucs.add(RankingMetrics.rocAuc(positive, first));
    if (ranking) {
      float[] rank = Arrays.copyOfRange(scores.negative(), b, scores.negative().length);
      reciprocalRankSum += RankingMetrics.meanReciprocalRank(positive, rank) * b;
    }
    events += b;
    for (int i = 0; i < b; i++) {
      int e = batch.event(i);
      if (!seenInTraining[sources[e]] || !seenInTraining[destinations[e]]) {
        if (newCount == newPositive.length) {
          newPositive = Arrays.copyOf(newPositive, 2 * newCount);
          newNegative = Arrays.copyOf(newNegative, 2 * newCount);
        }
        newPositive[newCount] = positive[i];
        newNegative[newCount++] = first[i];
      }
    }
  }

  /** Whether the scores added so far rank anything. */
  DegenerateScoreCheck degenerate() {
    return degenerate;
  }

  /** Events added so far. */
  public long events() {
    return events;
  }

  /** Events added so far with an endpoint unseen in training. */
  public long newNodeEvents() {
    return newCount;
  }

  /** The protocol's metrics over everything added. */
  public TestMetrics.Protocol result() {
    return new TestMetrics.Protocol(
        mean(aps),
        mean(aucs),
        ranking ? reciprocalRankSum / Math.max(1, events) : null,
        RankingMetrics.averagePrecision(
            Arrays.copyOf(newPositive, newCount), Arrays.copyOf(newNegative, newCount)));
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }
}
