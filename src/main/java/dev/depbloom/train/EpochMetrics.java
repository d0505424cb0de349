package dev.depbloom.train;

import dev.depbloom.step.Replica;
import java.util.List;
import java.util.Map;

/**
 * What one epoch measured: training loss and throughput, validation AP/AUC and loss (mean over
 * batches, TGL's way), seconds per stage of the training pass (the coordinating thread's), the same
 * per logical device, and the checksum of the parameters after the epoch.
 *
 * @param trainLoss mean of the rounds' losses, each the mean loss over its events
 * @param valLoss TGL's loss on the validation events and their first negatives, mean over batches
 *     (NaN when read from a run written before it was recorded)
 * @param trainEvents events trained on, counting an event once per memory group that trained on it
 * @param deviceStageSeconds per logical device, seconds per stage key (empty when not recorded)
 * @param parameterChecksum CRC32C of the parameters' bits ({@link Replica#checksum()}), or null
 * @param ranks per process of a multi-process run, in rank order: bytes sent and checksum (empty
 *     for one process)
 */
public record EpochMetrics(
    int epoch,
    double trainLoss,
    long trainEvents,
    double trainSeconds,
    double valAp,
    double valAuc,
    double valLoss,
    double valSeconds,
    Map<String, Double> stageSeconds,
    List<Map<String, Double>> deviceStageSeconds,
    String parameterChecksum,
    List<RankMetrics> ranks) {

  public double trainEventsPerSecond() {
    return trainEvents / trainSeconds;
  }

  /** Bytes a process sent to the others in the training pass, the mean over ranks (0 for one). */
  public long bytesSentPerRank() {
    long total = 0;
    for (RankMetrics r : ranks) {
      total += r.bytesSent();
    }
    return ranks.isEmpty() ? 0 : total / ranks.size();
  }
}
