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
 * @param timeHorizon how far, in the data's time unit, an event or a query may lie beyond the
 *     newest observed event (before any, beyond the data's first event); NaN: the run's training
 *     span (first to last training event), see {@link TemporalLinkPredictor#timeHorizon()}
 * @param idBound node ids must lie in {@code [0, idBound)}; 0: twice the run's largest id plus one
 *     (at least that id plus {@code maxNewNodes} plus one), see {@link
 *     TemporalLinkPredictor#idBound()}
 * @param journal the write-ahead log of observed batches ({@link EventJournal}), or null for none:
 *     replayed at load after the snapshot, appended (and forced to disk) before each batch is
 *     published, emptied by each {@link TemporalLinkPredictor#snapshot}
 */
public record PredictorOptions(
    int maxNewNodes,
    Path snapshot,
    String data,
    boolean emptyHistory,
    int workers,
    double timeHorizon,
    long idBound,
    Path journal) {
  /** New node ids allowed by default. */
  public static final int DEFAULT_MAX_NEW_NODES = 10_000;

  public PredictorOptions {
    if (maxNewNodes < 0) {
      throw new IllegalArgumentException("max new nodes must not be negative: " + maxNewNodes);
    }
    if (workers < 0) {
      throw new IllegalArgumentException("workers must not be negative: " + workers);
    }
    if (!Double.isNaN(timeHorizon) && !(timeHorizon > 0 && Double.isFinite(timeHorizon))) {
      throw new IllegalArgumentException(
          "the time horizon must be a positive number: " + timeHorizon);
    }
    if (idBound < 0) {
      throw new IllegalArgumentException("the id bound must not be negative: " + idBound);
    }
  }

  /**
   * {@value #DEFAULT_MAX_NEW_NODES} new nodes, the checkpoint's memory, the recorded data, the
   * training span as the time horizon, the default id space, no journal.
   */
  public static PredictorOptions defaults() {
    return new PredictorOptions(DEFAULT_MAX_NEW_NODES, null, null, false, 0, Double.NaN, 0, null);
  }

  public PredictorOptions withMaxNewNodes(int value) {
    return new PredictorOptions(
        value, snapshot, data, emptyHistory, workers, timeHorizon, idBound, journal);
  }

  public PredictorOptions withSnapshot(Path value) {
    return new PredictorOptions(
        maxNewNodes, value, data, emptyHistory, workers, timeHorizon, idBound, journal);
  }

  public PredictorOptions withData(String value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, value, emptyHistory, workers, timeHorizon, idBound, journal);
  }

  public PredictorOptions withEmptyHistory(boolean value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, data, value, workers, timeHorizon, idBound, journal);
  }

  public PredictorOptions withWorkers(int value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, data, emptyHistory, value, timeHorizon, idBound, journal);
  }

  public PredictorOptions withTimeHorizon(double value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, data, emptyHistory, workers, value, idBound, journal);
  }

  public PredictorOptions withIdBound(long value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, data, emptyHistory, workers, timeHorizon, value, journal);
  }

  public PredictorOptions withJournal(Path value) {
    return new PredictorOptions(
        maxNewNodes, snapshot, data, emptyHistory, workers, timeHorizon, idBound, value);
  }
}
