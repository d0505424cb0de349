package dev.depbloom.train;

import java.util.Map;

/**
 * What one epoch measured: training loss and throughput, validation AP/AUC (mean over batches,
 * TGL's way), and seconds per stage of the training pass.
 */
public record EpochMetrics(
    int epoch,
    double trainLoss,
    long trainEvents,
    double trainSeconds,
    double valAp,
    double valAuc,
    double valSeconds,
    Map<String, Double> stageSeconds) {

  public double trainEventsPerSecond() {
    return trainEvents / trainSeconds;
  }
}
