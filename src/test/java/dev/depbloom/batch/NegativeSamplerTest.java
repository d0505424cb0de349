package dev.depbloom.batch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NegativeSamplerTest {
  /** Five events whose destinations cover the whole tiny pool {0, 1, 2}. */
  private static final int[] DESTINATIONS = {0, 1, 2, 0, 2};

  private static final int[] POOL = {0, 1, 2};

  @Test
  void rankingNegativesNeverEqualTheirEventsDestinationInNegativeMajorLayout() {
    NegativeSampler sampler = new NegativeSampler(POOL, 7);
    int b = DESTINATIONS.length;
    for (long batch = 0; batch < 200; batch++) {
      int[] out = sampler.sampleExcludingDestinations(DESTINATIONS, 49, 3, batch);
      assertEquals(49 * b, out.length);
      for (int j = 0; j < 49; j++) {
        for (int i = 0; i < b; i++) {
          assertNotEquals(
              DESTINATIONS[i],
              out[j * b + i],
              "negative " + j + " of event " + i + ", key " + batch);
        }
      }
    }
  }

  @Test
  void rankingNegativesAreUniformOverTheOtherCandidates() {
    NegativeSampler sampler = new NegativeSampler(new int[] {0, 1, 2, 3}, 7);
    int[][] counts = new int[DESTINATIONS.length][4]; // [event, candidate]
    int b = DESTINATIONS.length;
    for (long batch = 0; batch < 100; batch++) {
      int[] out = sampler.sampleExcludingDestinations(DESTINATIONS, 30, 3, batch);
      for (int o = 0; o < out.length; o++) {
        counts[o % b][out[o]]++;
      }
    }
    for (int i = 0; i < b; i++) {
      assertEquals(0, counts[i][DESTINATIONS[i]]);
      for (int v = 0; v < 4; v++) {
        if (v != DESTINATIONS[i]) {
          // 3,000 draws over three candidates: 1,000 each expected, sd about 26
          assertTrue(
              counts[i][v] > 850 && counts[i][v] < 1150,
              "event " + i + " drew candidate " + v + " " + counts[i][v] + " times");
        }
      }
    }
  }

  @Test
  void rankingNegativesDependOnlyOnTheSeedAndKeys() {
    int[] first = new NegativeSampler(POOL, 7).sampleExcludingDestinations(DESTINATIONS, 9, 3, 1);
    int[] again = new NegativeSampler(POOL, 7).sampleExcludingDestinations(DESTINATIONS, 9, 3, 1);
    int[] otherKey =
        new NegativeSampler(POOL, 7).sampleExcludingDestinations(DESTINATIONS, 9, 3, 2);
    int[] otherSeed =
        new NegativeSampler(POOL, 8).sampleExcludingDestinations(DESTINATIONS, 9, 3, 1);
    assertArrayEquals(first, again);
    assertFalse(Arrays.equals(first, otherKey));
    assertFalse(Arrays.equals(first, otherSeed));
  }

  @Test
  void aPoolHoldingOnlyAnEventsDestinationIsRejectedNamingTheEvent() {
    NegativeSampler sampler = new NegativeSampler(new int[] {4, 4}, 7);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> sampler.sampleExcludingDestinations(new int[] {3, 4}, 2, 0));
    assertEquals(
        "no negative can be drawn for event 1 of the batch: the negative pool holds only node 4,"
            + " its true destination",
        e.getMessage());
    assertArrayEquals(new int[] {4, 4}, sampler.sampleExcludingDestinations(new int[] {3}, 2, 0));
  }

  @Test
  void trainingNegativesMayEqualTheDestinationAsInTgl() {
    int[] out = new NegativeSampler(new int[] {0, 1}, 7).sample(100, 3, 1);
    long zeros = Arrays.stream(out).filter(v -> v == 0).count();
    assertTrue(zeros > 30 && zeros < 70, "node 0 drawn " + zeros + " times of 100");
  }
}
