package dev.depbloom.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Test;

class ContiguousPartitionerTest extends PartitionerContract {
  @Override
  Partitioner create() {
    return new ContiguousPartitioner();
  }

  @Test
  void slicesDifferByAtMostOneEvent() {
    WindowPartition p = create().partition(TinyStreams.handBuilt(), 0, 8, 3);
    assertArrayEquals(new int[] {0, 0, 1, 1, 1, 2, 2, 2}, p.eventChains());
    assertArrayEquals(new int[] {2, 3, 3}, p.eventsPerChain());
  }

  /**
   * {@link TinyStreams#handBuilt()} in two slices, events 0-3 and 4-7. Endpoint slots per chain:
   * node 0 {3, 2}, node 1 {2, 2}, node 2 {2, 2} (the self-loop of event 4 counts twice), node 3 {1,
   * 2}; so owners 0, 0 (tie), 0 (tie), 1; events 3 (0-3), 6 (3-0) and 7 (1-3) cross chains.
   */
  @Test
  void ownersOfTheHandBuiltStreamInTwoSlices() {
    EventStream events = TinyStreams.handBuilt();
    WindowPartition p = create().partition(events, 0, 8, 2);
    assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1}, p.eventChains());
    assertArrayEquals(new int[] {0, 0, 0, 1}, p.nodeOwners());
    assertEquals(3, p.crossChainEvents());
  }

  @Test
  void aWindowLaterInTheStreamNumbersItsEventsByStreamIndex() {
    EventStream events = TinyStreams.handBuilt();
    WindowPartition p = create().partition(events, 5, 8, 2);
    assertEquals(0, p.chainOf(5));
    assertEquals(1, p.chainOf(6));
    assertEquals(1, p.chainOf(7));
    // node 2 has no event in [5, 8)
    assertEquals(-1, p.ownerOf(2));
    assertArrayEquals(new int[] {0, 1, 3}, p.activeNodes());
  }
}
