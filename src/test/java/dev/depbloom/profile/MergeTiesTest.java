package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.ContiguousPartitioner;
import org.junit.jupiter.api.Test;

/** The profile's count of window-end merges decided at equal times. */
class MergeTiesTest {
  /**
   * Windows of 4 events in 2 contiguous chains of 2; every event after the first at one time.
   *
   * <pre>
   *  event: 0     1     2     3   | 4     5     6     7
   *  edge:  0-5   1-3   2-6   3-6 | 0-5   1-7   2-6   3-7
   *  time:  0     1     1     1   | 1     1     1     1
   * </pre>
   *
   * Window 0 writes nodes 0, 5 (chain 0 at time 0, tying with chain 1's copy dated 0), 1 (chain 0),
   * 3 (chain 0 at event 1 and chain 1 at event 3, both time 1: tied, and a merge by time alone
   * keeps chain 0's), 2 and 6 (chain 1): 6 rows, 3 tied, 1 lost by time alone. Window 1 writes 0
   * and 5 (chain 0, after copies dated 0: no tie), 1 (chain 0, tying with chain 1's copy of event
   * 1), 7 (both chains, latest chain 1's), 2, 6 and 3 (chain 1, tying with chain 0's copies dated
   * 1): 7 rows, 5 tied, 4 lost by time alone (7, 2, 6, 3).
   */
  @Test
  void tiesAndTimeOnlyLossesAreCountedPerWindow() {
    int[] src = {0, 1, 2, 3, 0, 1, 2, 3};
    int[] dst = {5, 3, 6, 6, 5, 7, 6, 7};
    double[] time = {0, 1, 1, 1, 1, 1, 1, 1};
    EventStream events = TinyStreams.of(8, src, dst, time, 0);
    PartitionMeasure m =
        PartitionMeasure.measure(events, 0, 8, 4, new ContiguousPartitioner(), 2, 1, 1);
    assertEquals(new MergeTies(13, 8, 5), m.mergeTies());
  }

  /**
   * Distinct times tie only with the reset memory's time 0: the first event (time 0) writes nodes 0
   * and 5, and chain 1's copies of them are dated 0 too (both kept right by time alone, chain 0
   * being the lower view). One chain has nothing to merge against.
   */
  @Test
  void distinctTimesAndOneChainTieNothing() {
    int[] src = {0, 1, 2, 3, 0, 1, 2, 3};
    int[] dst = {5, 3, 6, 6, 5, 7, 6, 7};
    double[] time = {0, 1, 2, 3, 4, 5, 6, 7};
    EventStream events = TinyStreams.of(8, src, dst, time, 0);
    PartitionMeasure two =
        PartitionMeasure.measure(events, 0, 8, 4, new ContiguousPartitioner(), 2, 1, 1);
    assertEquals(new MergeTies(13, 2, 0), two.mergeTies());
    double[] equal = {1, 1, 1, 1, 1, 1, 1, 1};
    PartitionMeasure one =
        PartitionMeasure.measure(
            TinyStreams.of(8, src, dst, equal, 0), 0, 8, 4, new ContiguousPartitioner(), 1, 1, 1);
    assertEquals(0, one.mergeTies().tiedRows());
    assertEquals(0, one.mergeTies().lostByTimeOnly());
  }
}
