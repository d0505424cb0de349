package dev.depbloom.data.synthetic;

import dev.depbloom.data.EventStream;

/**
 * A generated stream with its ground truth: the community of every node, so partitioners can be
 * judged against the structure the generator planted.
 *
 * @param communities {@code [N]} community of each node; callers must not modify it
 */
public record SyntheticGraph(EventStream events, int[] communities) {}
