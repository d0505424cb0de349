package dev.depbloom.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AliasTableTest {
  @Test
  void twoWeightsOneToThreeGiveAQuarterAndThreeQuarters() {
    AliasTable table = AliasTable.of(new double[] {1, 3});
    assertEquals(0.25, table.probability(0, 0));
    assertEquals(0.75, table.probability(0, 1));
  }

  @Test
  void eachSegmentEncodesItsOwnNormalisedWeights() {
    double[] weights = {5, 1, 1, 1, 0, 2, 7, 0.5, 0.25, 0.25, 1e-9};
    int[] starts = {0, 4, 4, 7, 11}; // segments of 4, 0, 3 and 4 entries
    AliasTable table = new AliasTable(weights, starts);
    double[][] expected = {
      {5 / 8.0, 1 / 8.0, 1 / 8.0, 1 / 8.0}, {}, {0, 2 / 9.0, 7 / 9.0}, {0.5, 0.25, 0.25, 1e-9}
    };
    for (int s = 0; s < expected.length; s++) {
      double total = 0;
      for (int j = 0; j < expected[s].length; j++) {
        total += expected[s][j];
      }
      for (int j = 0; j < expected[s].length; j++) {
        assertEquals(expected[s][j] / total, table.probability(s, starts[s] + j), 1e-12);
      }
    }
  }

  @Test
  void segmentOfZeroWeightsIsUniform() {
    AliasTable table = AliasTable.of(new double[] {0, 0, 0, 0});
    assertEquals(0.25, table.probability(0, 2));
  }

  @Test
  void samplesStayInTheirSegmentAndFollowTheWeights() {
    AliasTable table = new AliasTable(new double[] {1, 1, 1, 9}, new int[] {0, 2, 4});
    SplittableRandom random = new SplittableRandom(7);
    int[] counts = new int[4];
    for (int i = 0; i < 100_000; i++) {
      counts[table.sample(1, random)]++;
    }
    assertEquals(0, counts[0] + counts[1]);
    // Index 3 has probability 0.9: 90,000 expected, standard deviation about 95.
    assertTrue(Math.abs(counts[3] - 90_000) < 600, "index 3 drawn " + counts[3] + " times");
  }
}
