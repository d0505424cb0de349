package dev.depbloom.api;

/**
 * One event of a served stream: {@code source} interacted with {@code destination} at {@code time},
 * with optional edge features. Node ids and times are the run's data's own (its original ids and
 * time unit); the predictor maps them to its dense ids and to the run's times (relative to the
 * data's first event).
 *
 * @param source the source node's id
 * @param destination the destination node's id
 * @param time when the event happened, in the data's time unit
 * @param features the event's edge features, as wide as the run's ({@link
 *     TemporalLinkPredictor#edgeFeatureDim()}), or null for zeros
 */
public record Interaction(long source, long destination, double time, float[] features) {
  /** An event without edge features (zeros where the run has them). */
  public Interaction(long source, long destination, double time) {
    this(source, destination, time, null);
  }
}
