package dev.depbloom.api;

/**
 * Link probabilities, one per query in order, all read from one memory version.
 *
 * @param version the memory version read: the number of event batches observed since load
 * @param scores {@code [queries]} probabilities in {@code (0, 1)}
 */
public record ScoredLinks(long version, float[] scores) {}
