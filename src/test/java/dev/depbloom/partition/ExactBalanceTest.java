package dev.depbloom.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Test;

class ExactBalanceTest {
  /**
   * Nodes a=0, b=1, c=2, d=3 (local ids in order of first appearance: a, b, c, d); parts a, b: 0,
   * c, d: 1. Events a-b, a-b, a-c, a-b, d-c, a-c follow their sources: chains 0 0 0 0 1 0, counts 5
   * and 1, shares 3 and 3. From the end: a-c (5) crosses to c's part 1, which is short: it moves;
   * d-c is in chain 1; a-b (3) stays (b's part is its own); a-c (2) moves. Nothing else moves.
   */
  @Test
  void movesTheLatestEventsWhoseDestinationsLieInAShortChain() {
    EventStream s =
        TinyStreams.of(
            4,
            new int[] {0, 0, 0, 0, 3, 0},
            new int[] {1, 1, 2, 1, 2, 2},
            new double[] {1, 2, 3, 4, 5, 6},
            0);
    WindowGraph g = WindowGraph.of(s, 0, 6);
    int[] part = {0, 0, 1, 1};
    int[] chains = {0, 0, 0, 0, 1, 0};
    assertEquals(2, ExactBalance.equalize(g, part, chains, 2));
    assertArrayEquals(new int[] {0, 0, 1, 0, 1, 1}, chains);
  }

  /**
   * Every destination lies in the full chain 0 (a, b: part 0; d: part 1), so the first pass moves
   * nothing; the second moves the latest event of chain 0 to the short chain 1. Shares of 5 events
   * over 2 chains: 3 and 2.
   */
  @Test
  void movesAnyLateEventWhenNoDestinationHelps() {
    EventStream s =
        TinyStreams.of(
            3,
            new int[] {0, 0, 0, 0, 2},
            new int[] {1, 1, 1, 1, 1},
            new double[] {1, 2, 3, 4, 5},
            0);
    WindowGraph g = WindowGraph.of(s, 0, 5);
    int[] part = {0, 0, 1}; // local ids: a=0, b=1, d=2
    int[] chains = {0, 0, 0, 0, 1};
    assertEquals(1, ExactBalance.equalize(g, part, chains, 2));
    assertArrayEquals(new int[] {0, 0, 0, 1, 1}, chains);
  }

  /** A node that is the source of nearly every event cannot sit in one chain of an equal split. */
  @Test
  void splitsAHeavySourceAcrossChains() {
    int n = 1000;
    int[] src = new int[n];
    int[] dst = new int[n];
    double[] t = new double[n];
    for (int i = 0; i < n; i++) {
      src[i] = i % 10 == 0 ? 1 + i % 7 : 0; // node 0 is the source of 90% of the events
      dst[i] = 10 + i % 13;
      t[i] = i;
    }
    EventStream s = TinyStreams.of(23, src, dst, t, 0);
    for (int p : new int[] {2, 3, 4}) {
      WindowPartition w = new TopologyPartitioner().partition(s, 0, n, p);
      int[] counts = new int[p];
      for (int e = 0; e < n; e++) {
        counts[w.chainOf(e)]++;
      }
      for (int c = 0; c < p; c++) {
        assertEquals(n / p + (c < n % p ? 1 : 0), counts[c], p + " chains, chain " + c);
      }
    }
  }
}
