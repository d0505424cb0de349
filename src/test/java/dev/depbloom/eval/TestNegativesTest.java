package dev.depbloom.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.train.TrainingRun;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A test batch: one AP negative per event drawn as validation draws it (may equal the destination,
 * as in TGL), then ranking negatives for MRR that never equal the destination (TGB).
 */
class TestNegativesTest {
  /** Bipartite: sources 0..5, three destinations 6..8, so a third of all draws would hit. */
  private static EventStream threeDestinations() {
    int n = 300;
    int[] src = new int[n];
    int[] dst = new int[n];
    double[] time = new double[n];
    for (int i = 0; i < n; i++) {
      src[i] = i % 6;
      dst[i] = 6 + (i * 7 / 5) % 3;
      time[i] = i;
    }
    return TinyStreams.of(9, src, dst, time, 0);
  }

  @Test
  void rankingNegativesNeverEqualTheEventsDestination() {
    EventStream events = threeDestinations();
    TestNegatives negatives = new TestNegatives(events, 3);
    for (int start = 0; start < 300; start += 100) {
      Batch batch = negatives.batch(start / 100, start, start + 100, 20, 11, 0, start);
      assertEquals(21, batch.negativesPerEvent());
      for (int j = 1; j <= 20; j++) {
        for (int i = 0; i < 100; i++) {
          assertNotEquals(
              events.destinations()[start + i],
              batch.roots()[(2 + j) * 100 + i],
              "ranking negative " + j + " of event " + (start + i));
        }
      }
    }
  }

  @Test
  void theApNegativeIsTheOneValidationDrawsAndMayEqualTheDestination() {
    EventStream events = threeDestinations();
    TrainingRun run = TinyStreams.tinyRun(events, "tgn", 3);
    try (TrainingSession session = new TrainingSession(run.session())) {
      Batch test = new TestNegatives(events, 3).batch(1, 100, 200, 20, 11, 0, 100);
      Batch validationStyle = session.batch(1, 100, 200, 1, 11, 0, 100);
      int[] ap = Arrays.copyOfRange(test.roots(), 200, 300);
      assertArrayEquals(Arrays.copyOfRange(validationStyle.roots(), 200, 300), ap);
      int hits = 0;
      for (int i = 0; i < 100; i++) {
        hits += ap[i] == events.destinations()[100 + i] ? 1 : 0;
      }
      assertNotEquals(0, hits, "uniform over three destinations hits about a third");
    }
  }

  @Test
  void withoutRankingNegativesABatchHasTheApNegativeOnly() {
    EventStream events = threeDestinations();
    Batch batch = new TestNegatives(events, 3).batch(0, 0, 100, 0, 11, 0, 0);
    assertEquals(1, batch.negativesPerEvent());
  }
}
