package dev.depbloom.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TopologyPartitionerTest extends PartitionerContract {
  @Override
  Partitioner create() {
    return new TopologyPartitioner();
  }

  /**
   * Two triangles, {0, 1, 2} and {3, 4, 5}, their events interleaved in time:
   *
   * <pre>
   *   event  0  1  2  3  4  5  6  7
   *   src    0  3  1  4  2  5  0  3
   *   dst    1  4  2  5  0  3  2  5
   * </pre>
   */
  static EventStream twoTriangles() {
    return TinyStreams.of(
        6,
        new int[] {0, 3, 1, 4, 2, 5, 0, 3},
        new int[] {1, 4, 2, 5, 0, 3, 2, 5},
        new double[] {1, 2, 3, 4, 5, 6, 7, 8},
        0);
  }

  /**
   * The streaming pass, capacity 1.05 * 8 / 2 = 4.2 source events per part, nodes in the order 0,
   * 1, 3, 4, 2, 5: node 0 (weight 2) to the lighter part 0; 1 follows 0; 3 (weight 2) no longer
   * fits part 0 (3 + 2 > 4.2) and goes to part 1; 4 follows 3; 2 joins its three links in part 0; 5
   * joins part 1. Every event follows its source: chains alternate, nothing crosses.
   */
  @Test
  void twoCommunitiesBecomeTwoChainsWithoutCrossChainEvents() {
    WindowPartition p = create().partition(twoTriangles(), 0, 8, 2);
    assertArrayEquals(new int[] {0, 1, 0, 1, 0, 1, 0, 1}, p.eventChains());
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, p.nodeOwners());
    assertEquals(0, p.crossChainEvents());
  }

  /** The same stream cut by time: events 0-3 and 4-7; four events cross (see the owners). */
  @Test
  void contiguousSlicingOfTheTwoCommunitiesCutsHalfTheEvents() {
    WindowPartition p = new ContiguousPartitioner().partition(twoTriangles(), 0, 8, 2);
    assertArrayEquals(new int[] {1, 0, 1, 1, 0, 1}, p.nodeOwners());
    assertEquals(4, p.crossChainEvents());
  }

  @Test
  void chainsStayWithinTheSlackWhenNoNodeIsHeavy() {
    // 200 nodes, 4,000 uniform events: a node is the source of far fewer than 5% of a chain's
    // events, so the capacity always has room.
    EventStream events = TinyStreams.randomWithTies(5, 200, 4000, 100);
    for (int chains : new int[] {2, 3, 4, 8}) {
      WindowPartition p = create().partition(events, 0, 4000, chains);
      assertTrue(
          p.balance() <= 1 + TopologyPartitioner.SLACK + 1e-9,
          chains + " chains: balance " + p.balance());
    }
  }

  @Test
  void cutsFewerEventsThanContiguousSlicesOnACommunityStream() {
    EventStream events = communities(9, 4, 25, 4000, 0.9);
    int topology = create().partition(events, 0, 4000, 4).crossChainEvents();
    int contiguous = new ContiguousPartitioner().partition(events, 0, 4000, 4).crossChainEvents();
    // About 10% of the events join communities; slicing by time cuts about 3/4 of all events.
    assertTrue(topology < 800, "topology cuts " + topology);
    assertTrue(contiguous > 2000, "contiguous cuts " + contiguous);
  }

  /**
   * {@code groups} communities of {@code size} nodes; each event picks a community, a source in it,
   * and a destination in it with probability {@code inside}, anywhere otherwise.
   */
  static EventStream communities(long seed, int groups, int size, int events, double inside) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] src = new int[events];
    int[] dst = new int[events];
    double[] time = new double[events];
    for (int i = 0; i < events; i++) {
      int g = random.nextInt(groups);
      src[i] = g * size + random.nextInt(size);
      dst[i] =
          random.nextDouble() < inside
              ? g * size + random.nextInt(size)
              : random.nextInt(groups * size);
      time[i] = i;
    }
    return TinyStreams.of(groups * size, src, dst, time, 0);
  }
}
