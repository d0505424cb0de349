package dev.depbloom.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.sampling.SampledLayer;
import org.junit.jupiter.api.Test;

/** Who writes what on hand-built batches: TGL's last-occurrence rule, in event order. */
class WritePlanTest {
  @Test
  void theLastOccurrenceInEventOrderWinsForANodeThatIsBothSourceAndDestination() {
    //  event:  0   1   2       roots [src | dst | neg]:
    //  src:    1   2   3       positions 0..2 sources, 3..5 destinations, 6..8 negatives
    //  dst:    2   3   1
    //  time:  10  20  30
    int[] roots = {1, 2, 3, 2, 3, 1, 2, 0, 1};
    double[] times = {10, 20, 30, 10, 20, 30, 10, 20, 30};
    ReadPlan reads = ReadPlan.of(roots, times, roots.length);
    // negatives (2 @ 10) and (1 @ 30) share the reads of destinations 0 and 2
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 3, 6, 5}, reads.positionRead());

    WritePlan plan = WritePlan.of(roots, times, 3, reads.positionRead(), null);

    // order s0 d0 s1 d1 s2 d2: node 1 last as d2 (read 5), node 2 as s1 (read 1, not its earlier
    // d0 at time 10), node 3 as s2 (read 2); node 0, only a negative, never writes
    assertArrayEquals(new int[] {1, 2, 3}, plan.memoryNodes());
    assertArrayEquals(new double[] {30, 20, 30}, plan.memoryTimes());
    assertArrayEquals(new int[] {5, 1, 2}, plan.memoryRead());
    assertArrayEquals(new int[] {1, 2, 3}, plan.mailNodes());
    assertArrayEquals(new double[] {30, 20, 30}, plan.mailTimes());
    assertArrayEquals(new int[] {5, 1, 2}, plan.mailSelfRead());
    assertArrayEquals(new int[] {2, 4, 5}, plan.mailOtherRead());
    assertArrayEquals(new int[] {2, 1, 2}, plan.mailEvent());
  }

  @Test
  void deliveryToNeighborsGoesSrcSelfDstSelfSrcNeighborsDstNeighborsPerEventLastMailWinning() {
    //  event 0: 1 -> 2 at 10; event 1: 3 -> 4 at 20; negatives node 0 (positions 4, 5)
    int[] roots = {1, 3, 2, 4, 0, 0};
    double[] times = {10, 20, 10, 20, 10, 20};
    int[] positionRead = {0, 1, 2, 3, 4, 5};
    // sampled neighbors per root: 1@10 -> {5, 2}; 3@20 -> {1}; 2@10 -> {5, 6}; 4@20 -> {3};
    // the negatives' neighbor 7 must never receive mail
    SampledLayer neighbors =
        new SampledLayer(
            2,
            new int[] {0, 2, 3, 5, 6, 7, 8},
            new int[] {5, 2, 1, 5, 6, 3, 7, 7},
            new int[] {0, 0, 0, 0, 0, 0, 0, 0},
            new double[] {1, 1, 1, 1, 1, 1, 1, 1},
            new float[] {9, 9, 19, 9, 9, 19, 9, 19});

    WritePlan plan = WritePlan.of(roots, times, 2, positionRead, neighbors);

    // node 1: src of event 0, then src's neighbor in event 1 -> event 1's src mail
    // node 2: dst of event 0, then src's neighbor in the same event -> event 0's src mail
    // node 5: src's then dst's neighbor in event 0 -> event 0's dst mail; node 6 likewise
    // node 3: src of event 1, then dst's neighbor -> event 1's dst mail; node 4: dst of event 1
    assertArrayEquals(new int[] {1, 2, 5, 6, 3, 4}, plan.mailNodes());
    assertArrayEquals(new double[] {20, 10, 10, 10, 20, 20}, plan.mailTimes());
    assertArrayEquals(new int[] {1, 0, 2, 2, 3, 3}, plan.mailSelfRead());
    assertArrayEquals(new int[] {3, 2, 0, 0, 1, 1}, plan.mailOtherRead());
    assertArrayEquals(new int[] {1, 0, 0, 0, 1, 1}, plan.mailEvent());
    // memory is written by the true endpoints only, whatever the delivery
    assertArrayEquals(new int[] {1, 2, 3, 4}, plan.memoryNodes());
    assertArrayEquals(new double[] {10, 10, 20, 20}, plan.memoryTimes());
    assertArrayEquals(new int[] {0, 2, 1, 3}, plan.memoryRead());
  }
}
