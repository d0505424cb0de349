package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.EventStream;
import dev.depbloom.sampling.TemporalCsr;
import org.junit.jupiter.api.Test;

/**
 * Hot and cold rows on {@link TinyStreams#handBuilt()} in batches of 3, [0, 3), [3, 6), [6, 8):
 *
 * <pre>
 *   event  0  1  2  3  4  5  6  7
 *   src    0  0  1  0  2  0  3  1
 *   dst    1  2  2  3  2  1  0  3
 *   time   1  2  3  3  4  5  5  6
 * </pre>
 *
 * Batch 0 writes {0, 1, 2}, batch 1 writes {0, 3, 2, 1}; batch 2's roots are {3, 0, 1}.
 */
class HotColdRowsTest {
  private static final EventStream EVENTS = TinyStreams.handBuilt();
  private static final TemporalCsr CSR = TemporalCsr.build(EVENTS, true);

  /** Batch 1 reads all of {0, 1, 2}; batch 2 reads 0, 1 and 3 of {0, 1, 2, 3}: 6 hot of 7. */
  @Test
  void rootsOnlyLeaveNode2ColdAfterBatch1() {
    HotColdRows h = HotColdRows.measure(EVENTS, null, 0, 8, 3, ReadStyle.ROOTS, null);
    assertEquals(new HotColdRows(3, ReadStyle.ROOTS, false, 2, 7, 6), h);
    assertEquals(6 / 7.0, h.hotShare());
    assertEquals(1 / 7.0, h.coldShare(), 1e-12);
  }

  /**
   * Batch 2's roots with their neighbors strictly before the event time: node 0 at time 5 has
   * neighbors 1, 2, 3 (events 0, 1, 3), so node 2 is read too and all 7 written rows are hot.
   */
  @Test
  void recentNeighborsMakeNode2Hot() {
    HotColdRows h =
        HotColdRows.measure(EVENTS, CSR, 0, 8, 3, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, null);
    assertEquals(new HotColdRows(3, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, false, 2, 7, 7), h);
    assertEquals(0, h.coldShare());
  }

  /** Negatives drawn from the pool {2} only: node 2 is read by batch 2 as a negative. */
  @Test
  void negativesAreReadToo() {
    NegativeSampler onlyNode2 = new NegativeSampler(new int[] {2}, 0);
    HotColdRows h = HotColdRows.measure(EVENTS, null, 0, 8, 3, ReadStyle.ROOTS, onlyNode2);
    assertEquals(new HotColdRows(3, ReadStyle.ROOTS, true, 2, 7, 7), h);
  }

  /** Batches of 2 from event 3 (aligned: [3, 4), [4, 6), [6, 8)); reads of the next batch only. */
  @Test
  void onlyTheNextBatchCounts() {
    // writes {0, 3} -> batch [4, 6) reads {2, 0, 1}: 1 hot; writes {2, 0, 1} -> [6, 8) reads
    // {3, 0, 1}: 2 hot.
    HotColdRows h = HotColdRows.measure(EVENTS, null, 3, 8, 2, ReadStyle.ROOTS, null);
    assertEquals(new HotColdRows(2, ReadStyle.ROOTS, false, 2, 5, 3), h);
  }

  @Test
  void neighborReadsWithoutACsrAreRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            HotColdRows.measure(EVENTS, null, 0, 8, 3, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, null));
  }
}
