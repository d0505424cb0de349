package dev.depbloom.profile;

import dev.depbloom.data.EventStream;
import dev.depbloom.partition.WindowPartition;
import java.util.Arrays;

/**
 * Dependencies a partition loses: reads of a node that do not see the latest earlier write to it
 * that sequential training would show (docs/profile.md, "What is measured"). Under DepBloom's read
 * rule a chain reads the rows of the nodes it owns as its own events write them and every other
 * node from the window-start snapshot; writes to another chain's nodes are buffered until the
 * window's end.
 *
 * <p>At event granularity, for event {@code e} in chain {@code c} and each endpoint {@code v}, let
 * {@code e'} be the latest event before {@code e} (in stream order) touching {@code v}. If {@code
 * e'} is before the window, the read is seen (the snapshot holds it); if {@code e'} is in the
 * window, it is seen iff {@code chain(e') == c} and {@code owner(v) == c} ({@link
 * ReadRule#OWNED_ROWS}, the default), or iff {@code chain(e') == c} ({@link ReadRule#OWN_WRITES});
 * otherwise it is lost. An event has two endpoint reads (a self-loop reads its node twice, with the
 * same outcome); it is a lost event when at least one of them is lost.
 *
 * @param events events counted
 * @param lostEvents events with at least one lost endpoint read
 * @param endpointReads endpoint reads counted, two per event
 * @param lostReads endpoint reads lost
 */
public record LostDependencies(long events, long lostEvents, long endpointReads, long lostReads) {
  public static final LostDependencies NONE = new LostDependencies(0, 0, 0, 0);

  /**
   * The lost dependencies of one partitioned window under {@link ReadRule#OWNED_ROWS}, the read
   * rule as designed (docs/architecture.md, "Schedules on logical devices").
   */
  public static LostDependencies of(EventStream events, WindowPartition partition) {
    return of(events, partition, ReadRule.OWNED_ROWS);
  }

  /** The lost dependencies of one partitioned window under a read rule. */
  public static LostDependencies of(EventStream events, WindowPartition partition, ReadRule rule) {
    boolean ownedOnly = rule == ReadRule.OWNED_ROWS;
    int[] src = events.sources();
    int[] dst = events.destinations();
    int from = partition.from();
    int[] lastEvent = new int[events.nodeCount()]; // latest window event touching the node
    Arrays.fill(lastEvent, -1);
    long lostEvents = 0;
    long lostReads = 0;
    for (int e = from; e < partition.to(); e++) {
      int c = partition.chainOf(e);
      int lost =
          lostRead(partition, ownedOnly, lastEvent, src[e], c)
              + lostRead(partition, ownedOnly, lastEvent, dst[e], c);
      lostReads += lost;
      lostEvents += lost > 0 ? 1 : 0;
      lastEvent[src[e]] = e;
      lastEvent[dst[e]] = e;
    }
    long n = partition.eventCount();
    return new LostDependencies(n, lostEvents, 2 * n, lostReads);
  }

  /** 1 when event in chain {@code c} misses the latest earlier write to {@code v}, else 0. */
  private static int lostRead(
      WindowPartition partition, boolean ownedOnly, int[] lastEvent, int v, int c) {
    int previous = lastEvent[v];
    if (previous < 0) {
      return 0;
    }
    boolean seen = partition.chainOf(previous) == c && (!ownedOnly || partition.ownerOf(v) == c);
    return seen ? 0 : 1;
  }

  /** The sum of two counts (e.g. of consecutive windows). */
  public LostDependencies plus(LostDependencies other) {
    return new LostDependencies(
        events + other.events,
        lostEvents + other.lostEvents,
        endpointReads + other.endpointReads,
        lostReads + other.lostReads);
  }

  /** Share of events with a lost endpoint read; 0 when nothing was counted. */
  public double lostEventShare() {
    return events == 0 ? 0 : (double) lostEvents / events;
  }

  /** Share of endpoint reads lost; 0 when nothing was counted. */
  public double lostReadShare() {
    return endpointReads == 0 ? 0 : (double) lostReads / endpointReads;
  }
}
