package dev.depbloom.api;

import java.nio.file.Path;

/**
 * How {@link TemporalLinkPredictor#load} sets up a predictor. Start from {@link #defaults()}.
 *
 * @param maxNewNodes node ids the run's data does not have that observed events may add; their
 *     memory rows are reserved at load (for TGN on Wikipedia about 1.2 KB a node)
 * @param snapshot a snapshot to restore after loading ({@link TemporalLinkPredictor#snapshot}), or
 *     null to start from the run's checkpoint
 * @param data the run's data if it has moved (the same events), or null for the recorded source
 * @param emptyHistory start with zero memory and no events instead of the checkpoint's memory and
 *     the training and validation events: the stream's history is then observed through the API
 *     (TGL's test protocol replays it so)
 * @param workers threads that compute an observed batch (0: the run's workers); scores are computed
 *     on the calling thread
 */
public record PredictorOptions(
    int maxNewNodes, Path snapshot, String data, boolean emptyHistory, int workers) {
  /** New node ids allowed by default. */
  public static final int DEFAULT_MAX_NEW_NODES = 10_000;

  public PredictorOptions {
    if (maxNewNodes < 0) {
      throw new IllegalArgumentException("max new nodes must not be negative: " + maxNewNodes);
    }
    if (workers < 0) {
      throw new IllegalArgumentException("workers must not be negative: " + workers);
    }
  }

  /** {@value #DEFAULT_MAX_NEW_NODES} new nodes, the checkpoint's memory, the recorded data. */
  public static PredictorOptions defaults() {
    return new PredictorOptions(DEFAULT_MAX_NEW_NODES, null, null, false, 0);
  }

  public PredictorOptions withMaxNewNodes(int value) {
    return new PredictorOptions(value, snapshot, data, emptyHistory, workers);
  }

  public PredictorOptions withSnapshot(Path value) {
    return new PredictorOptions(maxNewNodes, value, data, emptyHistory, workers);
  }

  public PredictorOptions withData(String value) {
    return new PredictorOptions(maxNewNodes, snapshot, value, emptyHistory, workers);
  }

  public PredictorOptions withEmptyHistory(boolean value) {
    return new PredictorOptions(maxNewNodes, snapshot, data, value, workers);
  }

  public PredictorOptions withWorkers(int value) {
    return new PredictorOptions(maxNewNodes, snapshot, data, emptyHistory, value);
  }
}
