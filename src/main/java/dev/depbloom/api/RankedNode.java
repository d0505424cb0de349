package dev.depbloom.api;

/**
 * A candidate destination and its link probability.
 *
 * @param node the candidate's id
 * @param score its probability in {@code (0, 1)}
 */
public record RankedNode(long node, float score) {}
