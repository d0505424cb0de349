package dev.depbloom.data.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class NaturalMergeTimeSortTest {
  @Test
  void equalTimesKeepTheirInputOrder() {
    double[] time = {2, 1, 2, 1, 0};
    assertArrayEquals(new int[] {4, 1, 3, 0, 2}, NaturalMergeTimeSort.stableOrder(time, 5));
  }

  @Test
  void onlyTheFirstNRowsAreSorted() {
    double[] time = {3, 1, 2, -100};
    assertArrayEquals(new int[] {1, 2, 0}, NaturalMergeTimeSort.stableOrder(time, 3));
  }

  @Test
  void agreesWithAStableLibrarySortOnRandomAndNearlySortedInput() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 40; trial++) {
      int n = random.nextInt(1, 3000);
      double[] time = new double[n];
      for (int i = 0; i < n; i++) {
        time[i] = trial % 2 == 0 ? random.nextInt(50) : i / 3 + (random.nextInt(100) == 0 ? -5 : 0);
      }
      Integer[] expected = IntStream.range(0, n).boxed().toArray(Integer[]::new);
      Arrays.sort(expected, Comparator.comparingDouble(i -> time[i])); // stable (TimSort)
      int[] want = Arrays.stream(expected).mapToInt(Integer::intValue).toArray();
      assertArrayEquals(want, NaturalMergeTimeSort.stableOrder(time, n), "trial " + trial);
    }
  }
}
