package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Test;

/**
 * Staleness on {@link TinyStreams#handBuilt()} with micro-batches of 2:
 *
 * <pre>
 *   event  0  1  2  3  4  5  6  7
 *   src    0  0  1  0  2  0  3  1
 *   dst    1  2  2  3  2  1  0  3
 * </pre>
 */
class IntraBatchStalenessTest {
  private static final EventStream EVENTS = TinyStreams.handBuilt();

  /**
   * Batches of 2: event 1 repeats node 0 of event 0, event 7 node 3 of event 6; no other event
   * repeats a node of its batch (event 4's self-loop repeats only itself).
   */
  @Test
  void oneMicroBatchIsPlainBatchStaleness() {
    IntraBatchStaleness s = IntraBatchStaleness.measure(EVENTS, 0, 8, 2, 1);
    assertEquals(new IntraBatchStaleness(2, 1, 8, 2, 2), s);
    assertEquals(0, s.recoverableShare());
  }

  /**
   * Large batches [0, 4) and [4, 8) of micro-batches of 2. Stale in the large batch: events 1 (node
   * 0), 2 (nodes 1, 2), 3 (node 0), 6 (node 0 of event 5), 7 (node 1 of event 5, node 3 of event
   * 6). Within their micro-batch only 1 and 7; so 2, 3 and 6 are recoverable.
   */
  @Test
  void twoMicroBatchesSplitStaleEventsIntoResidualAndRecoverable() {
    IntraBatchStaleness s = IntraBatchStaleness.measure(EVENTS, 0, 8, 2, 2);
    assertEquals(new IntraBatchStaleness(2, 2, 8, 5, 2), s);
    assertEquals(5 / 8.0, s.staleShare());
    assertEquals(2 / 8.0, s.residualShare());
    assertEquals(3 / 8.0, s.recoverableShare());
    assertEquals(3 / 5.0, s.recoveredFraction());
  }

  /**
   * From event 1, batches stay aligned to multiples of the size: large batches [1, 4) and [4, 8),
   * micro-batches [1, 2), [2, 4), [4, 6), [6, 8). Stale: 2 (node 2 of event 1), 3 (node 0 of event
   * 1), 6, 7; within the micro-batch: 7 only.
   */
  @Test
  void batchesAreAlignedToMultiplesOfTheirSize() {
    assertEquals(
        new IntraBatchStaleness(2, 2, 7, 4, 1), IntraBatchStaleness.measure(EVENTS, 1, 8, 2, 2));
  }
}
