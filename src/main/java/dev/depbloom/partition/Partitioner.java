package dev.depbloom.partition;

import dev.depbloom.data.EventStream;

/**
 * Splits the events of one temporal window into {@code P} sub-chains (DepBloom's temporally bounded
 * spatial partitioning, docs/schedules.md). A partitioner decides only the chain of every event;
 * the owner chain of every active node then follows from the events by the one rule of {@link
 * WindowPartition#ofEventChains}, so that all partitioners are judged by the same read rule.
 *
 * <p>Contract (checked by {@code PartitionerContract} for every implementation): every event of the
 * window gets a chain in {@code [0, P)}; the result depends only on the inputs (same stream, window
 * and {@code P} give the same partition); with {@code P = 1} every event is in chain 0.
 */
public interface Partitioner {
  /**
   * Partitions the events {@code [from, to)} of {@code events} into {@code chains} sub-chains.
   *
   * @throws IllegalArgumentException when the window is empty or outside the stream, or {@code
   *     chains < 1}
   */
  WindowPartition partition(EventStream events, int from, int to, int chains);

  /** The name the command line and the profile use: {@code contiguous}, {@code topology}. */
  String name();

  /** Checks the arguments every implementation takes; the message names the bad one. */
  static void checkWindow(EventStream events, int from, int to, int chains) {
    if (from < 0 || to > events.eventCount() || from >= to) {
      throw new IllegalArgumentException(
          "window [" + from + ", " + to + ") is empty or outside 0.." + events.eventCount());
    }
    if (chains < 1) {
      throw new IllegalArgumentException("chains must be at least 1, got " + chains);
    }
  }
}
