package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.TopologyPartitioner;
import dev.depbloom.partition.WindowPartition;
import org.junit.jupiter.api.Test;

/**
 * Lost dependencies on {@link TinyStreams#handBuilt()}, every read worked out by hand:
 *
 * <pre>
 *   event  0  1  2  3  4  5  6  7
 *   src    0  0  1  0  2  0  3  1
 *   dst    1  2  2  3  2  1  0  3
 * </pre>
 */
class LostDependenciesTest {
  private static final EventStream EVENTS = TinyStreams.handBuilt();

  /**
   * Chains {0,0,0,0,1,1,1,1}; owners 0, 0, 0, 1 (see {@code ContiguousPartitionerTest}). Chain 0
   * sees all its reads. Chain 1: event 4 reads node 2 twice, last written by event 2 in chain 0:
   * both lost. Event 5: node 0 (event 3, chain 0) and node 1 (event 2, chain 0): lost. Event 6:
   * node 3 (event 3, chain 0) lost; node 0 (event 5, chain 1) lost too, node 0 being chain 0's.
   * Event 7: node 1 (event 5, chain 1, but owned by chain 0) lost; node 3 (event 6, chain 1, owned
   * by 1) seen. So 4 events and 7 of 16 reads.
   */
  @Test
  void ownedRowsRuleOnTwoSlices() {
    WindowPartition p = new ContiguousPartitioner().partition(EVENTS, 0, 8, 2);
    assertEquals(new LostDependencies(8, 4, 16, 7), LostDependencies.of(EVENTS, p));
    assertEquals(
        new LostDependencies(8, 4, 16, 7), LostDependencies.of(EVENTS, p, ReadRule.OWNED_ROWS));
  }

  /**
   * The same partition when a chain also reads its own writes to other chains' nodes: event 6's
   * read of node 0 and event 7's read of node 1 are now seen. 3 events, 5 reads.
   */
  @Test
  void ownWritesRuleSeesAChainsWritesToNodesItDoesNotOwn() {
    WindowPartition p = new ContiguousPartitioner().partition(EVENTS, 0, 8, 2);
    assertEquals(
        new LostDependencies(8, 3, 16, 5), LostDependencies.of(EVENTS, p, ReadRule.OWN_WRITES));
  }

  /**
   * Window [2, 8), chains alternating {0,1,0,1,0,1} from event 2; owners: node 0 chain 1 (events 3,
   * 5 vs 6), node 1 chain 1 (5, 7 vs 2), node 2 chain 0, node 3 chain 1. Event 2 reads nodes 1 and
   * 2, last written before the window: seen. Event 3: node 0 before the window, node 3 new. Event
   * 4: node 2 by event 2 in chain 0, owned by 0: seen. Event 5: node 0 by event 3 (chain 1, owned
   * by 1) seen; node 1 by event 2 (chain 0) lost. Event 6 (chain 0): node 3 by event 3 and node 0
   * by event 5, both chain 1: lost. Event 7 (chain 1): node 1 by event 5 seen; node 3 by event 6
   * (chain 0) lost. 3 events, 4 of 12 reads.
   */
  @Test
  void writesBeforeTheWindowAreSeenFromTheSnapshot() {
    WindowPartition p =
        WindowPartition.ofEventChains(EVENTS, 2, 8, 2, new int[] {0, 1, 0, 1, 0, 1});
    assertEquals(1, p.ownerOf(0));
    assertEquals(1, p.ownerOf(1));
    assertEquals(0, p.ownerOf(2));
    assertEquals(1, p.ownerOf(3));
    assertEquals(new LostDependencies(6, 3, 12, 4), LostDependencies.of(EVENTS, p));
    assertEquals(
        new LostDependencies(6, 3, 12, 4), LostDependencies.of(EVENTS, p, ReadRule.OWN_WRITES));
  }

  @Test
  void oneChainLosesNothing() {
    WindowPartition p = new TopologyPartitioner().partition(EVENTS, 0, 8, 1);
    assertEquals(new LostDependencies(8, 0, 16, 0), LostDependencies.of(EVENTS, p));
  }

  @Test
  void sharesAndSumsOfWindows() {
    LostDependencies a = new LostDependencies(8, 4, 16, 7);
    LostDependencies b = new LostDependencies(6, 3, 12, 4);
    LostDependencies sum = a.plus(b);
    assertEquals(new LostDependencies(14, 7, 28, 11), sum);
    assertEquals(0.5, sum.lostEventShare());
    assertEquals(11 / 28.0, sum.lostReadShare());
    assertEquals(0, LostDependencies.NONE.lostEventShare());
  }

  @Test
  void eventChainsOutsideTheChainsAreRejected() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> WindowPartition.ofEventChains(EVENTS, 0, 2, 2, new int[] {0, 2}));
    assertEquals("event 1 has chain 2, outside 0..1", e.getMessage());
  }
}
