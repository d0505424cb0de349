package dev.depbloom.train;

import java.util.List;
import java.util.Map;

/**
 * What one epoch measured: training loss and throughput, validation AP/AUC (mean over batches,
 * TGL's way), seconds per stage of the training pass (the coordinating thread's), the same per
 * logical device, and the checksum of the parameters after the epoch.
 *
 * @param trainLoss mean of the rounds' losses, each the mean loss over its events
 * @param trainEvents events trained on, counting an event once per memory group that trained on it
 * @param deviceStageSeconds per logical device, seconds per stage key (empty when not recorded)
 * @param parameterChecksum CRC32C of the parameters' bits ({@link Replica#checksum()}), or null
 */
public record EpochMetrics(
    int epoch,
    double trainLoss,
    long trainEvents,
    double trainSeconds,
    double valAp,
    double valAuc,
    double valSeconds,
    Map<String, Double> stageSeconds,
    List<Map<String, Double>> deviceStageSeconds,
    String parameterChecksum) {

  public double trainEventsPerSecond() {
    return trainEvents / trainSeconds;
  }
}
