package dev.depbloom.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Partitioner} must do, run against each implementation by a subclass. Expected
 * values are recounted from the events, never read back from the partition's own counters.
 */
abstract class PartitionerContract {
  /** 50 nodes, 1,200 events at 300 distinct times, some self-loops. */
  static final EventStream EVENTS = TinyStreams.randomWithTies(3, 50, 1200, 300);

  /** Window in the middle of the stream: events before and after it exist. */
  static final int FROM = 200;

  static final int TO = 900;

  abstract Partitioner create();

  @Test
  void everyEventOfTheWindowGetsAChainInRange() {
    for (int chains = 1; chains <= 5; chains++) {
      WindowPartition p = create().partition(EVENTS, FROM, TO, chains);
      assertEquals(TO - FROM, p.eventChains().length);
      for (int e = FROM; e < TO; e++) {
        int c = p.chainOf(e);
        assertTrue(c >= 0 && c < chains, "event " + e + " in chain " + c + " of " + chains);
      }
    }
  }

  /**
   * Chains of equal size, to one event: with a window that is a multiple of {@code P k B}, every
   * chain's share is whole large batches, so no round of the window is cut short.
   */
  @Test
  void chainsHoldEqualSharesOfTheWindowToOneEvent() {
    for (int chains = 1; chains <= 8; chains++) {
      WindowPartition p = create().partition(EVENTS, FROM, TO, chains);
      int[] counts = new int[chains];
      for (int e = FROM; e < TO; e++) {
        counts[p.chainOf(e)]++;
      }
      int min = Arrays.stream(counts).min().orElseThrow();
      int max = Arrays.stream(counts).max().orElseThrow();
      assertTrue(max - min <= 1, chains + " chains: " + Arrays.toString(counts));
    }
  }

  @Test
  void everyActiveNodeHasOneOwnerAndOtherNodesNone() {
    WindowPartition p = create().partition(EVENTS, FROM, TO, 4);
    boolean[] active = new boolean[EVENTS.nodeCount()];
    for (int e = FROM; e < TO; e++) {
      active[EVENTS.sources()[e]] = true;
      active[EVENTS.destinations()[e]] = true;
    }
    int activeCount = 0;
    for (int v = 0; v < active.length; v++) {
      int owner = p.ownerOf(v);
      assertEquals(active[v], owner >= 0, "node " + v);
      assertTrue(owner < 4, "node " + v + " owned by " + owner);
      activeCount += active[v] ? 1 : 0;
    }
    assertEquals(activeCount, p.activeNodes().length);
  }

  @Test
  void ownersFollowTheMajorityOfTheirEventsTiesToTheLowestChain() {
    int chains = 3;
    WindowPartition p = create().partition(EVENTS, FROM, TO, chains);
    int[][] slots = new int[EVENTS.nodeCount()][chains];
    for (int e = FROM; e < TO; e++) {
      slots[EVENTS.sources()[e]][p.chainOf(e)]++;
      slots[EVENTS.destinations()[e]][p.chainOf(e)]++;
    }
    for (int v : p.activeNodes()) {
      int best = 0;
      for (int c = 1; c < chains; c++) {
        best = slots[v][c] > slots[v][best] ? c : best;
      }
      assertEquals(best, p.ownerOf(v), "node " + v + " with " + Arrays.toString(slots[v]));
    }
  }

  @Test
  void countsAddUp() {
    WindowPartition p = create().partition(EVENTS, FROM, TO, 4);
    int[] perChain = new int[4];
    int cross = 0;
    for (int e = FROM; e < TO; e++) {
      perChain[p.chainOf(e)]++;
      cross += p.ownerOf(EVENTS.sources()[e]) != p.ownerOf(EVENTS.destinations()[e]) ? 1 : 0;
    }
    assertArrayEquals(perChain, p.eventsPerChain());
    assertEquals(TO - FROM, Arrays.stream(p.eventsPerChain()).sum());
    assertEquals(cross, p.crossChainEvents());
    assertEquals(Arrays.stream(perChain).max().getAsInt(), p.largestChainEvents());
  }

  @Test
  void sameInputGivesTheSamePartition() {
    WindowPartition a = create().partition(EVENTS, FROM, TO, 3);
    WindowPartition b = create().partition(EVENTS, FROM, TO, 3);
    assertArrayEquals(a.eventChains(), b.eventChains());
    assertArrayEquals(a.nodeOwners(), b.nodeOwners());
  }

  @Test
  void oneChainHoldsEverythingWithoutCrossChainEvents() {
    WindowPartition p = create().partition(EVENTS, FROM, TO, 1);
    assertEquals(0, p.crossChainEvents());
    assertArrayEquals(new int[] {TO - FROM}, p.eventsPerChain());
    assertEquals(1.0, p.balance());
  }

  @Test
  void moreChainsThanEventsLeavesSomeChainsEmpty() {
    WindowPartition p = create().partition(EVENTS, FROM, FROM + 3, 5);
    assertEquals(3, Arrays.stream(p.eventsPerChain()).sum());
    assertEquals(5, p.eventsPerChain().length);
  }

  @Test
  void badArgumentsAreRejectedWithTheirValues() {
    Partitioner partitioner = create();
    var empty =
        assertThrows(
            IllegalArgumentException.class, () -> partitioner.partition(EVENTS, 10, 10, 2));
    assertTrue(empty.getMessage().contains("[10, 10)"), empty.getMessage());
    var outside =
        assertThrows(
            IllegalArgumentException.class, () -> partitioner.partition(EVENTS, 0, 5000, 2));
    assertTrue(outside.getMessage().contains("5000"), outside.getMessage());
    var chains =
        assertThrows(IllegalArgumentException.class, () -> partitioner.partition(EVENTS, 0, 10, 0));
    assertTrue(chains.getMessage().contains("chains"), chains.getMessage());
  }
}
