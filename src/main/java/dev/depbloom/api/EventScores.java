package dev.depbloom.api;

/**
 * What {@link TemporalLinkPredictor#scoreThenObserve} returns: each event's probability as the
 * model predicted it just before the event was observed (the test protocol's score), and the same
 * for each of its candidate destinations.
 *
 * @param version the memory version after the events were observed
 * @param scores {@code [events]} the events' probabilities
 * @param candidates {@code [events][k]} the probabilities of each event's candidate destinations
 *     (empty rows without candidates)
 */
public record EventScores(long version, float[] scores, float[][] candidates) {}
