package dev.depbloom.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchTest {
  private final EventStream events =
      TinyStreams.of(6, new int[] {0, 1, 2}, new int[] {3, 4, 5}, new double[] {1, 2, 3}, 0);

  @Test
  void rootsAreSourcesThenDestinationsThenNegativesNegativeMajor() {
    Batch b = Batch.of(events, 0, 0, 3, new int[] {5, 4, 3, 2, 1, 0});
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0}, b.roots());
    assertArrayEquals(new double[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, b.rootTimes());
    assertEquals(2, b.negativesPerEvent());
  }

  @Test
  void aBatchWithoutNegativesHasOnlyTheTrueEndpoints() {
    Batch b = Batch.of(events, 0, 1, 3, new int[0]);
    assertArrayEquals(new int[] {1, 2, 4, 5}, b.roots());
    assertEquals(0, b.negativesPerEvent());
  }

  @Test
  void negativesMustBeAWholeNumberPerEvent() {
    assertThrows(IllegalArgumentException.class, () -> Batch.of(events, 0, 0, 3, new int[] {1}));
  }

  @Test
  void aNegativeGroupKeepsTheEndpointsAndKnowsItsRootsPositionsInTheBatch() {
    // three events, three negatives each: [src | dst | neg0 | neg1 | neg2]
    Batch b = Batch.of(events, 4, 0, 3, new int[] {5, 4, 3, 2, 1, 0, 0, 1, 2});
    Batch group = b.negativeGroup(1, 2);
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 2, 1, 0, 0, 1, 2}, group.roots());
    assertArrayEquals(new double[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, group.rootTimes());
    assertEquals(4, group.index());
    assertArrayEquals(
        new int[] {0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14}, b.negativeGroupPositions(1, 2));
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, b.negativeGroupPositions(0, 1));
    assertThrows(IllegalArgumentException.class, () -> b.negativeGroup(2, 2));
  }

  @Test
  void batchBoundsAlignToMultiplesOfTheBatchSizeAsTglDoes() {
    List<int[]> bounds = BatchPlan.bounds(700, 2000, 600);
    assertEquals(3, bounds.size());
    assertArrayEquals(new int[] {700, 1200}, bounds.get(0));
    assertArrayEquals(new int[] {1200, 1800}, bounds.get(1));
    assertArrayEquals(new int[] {1800, 2000}, bounds.get(2));
  }
}
