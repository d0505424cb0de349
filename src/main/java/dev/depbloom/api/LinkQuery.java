package dev.depbloom.api;

/**
 * A link to score: how likely {@code source} interacts with {@code destination} at {@code time}.
 * Ids and time as in {@link Interaction}.
 */
public record LinkQuery(long source, long destination, double time) {}
