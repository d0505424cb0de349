package dev.depbloom.data.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Test;

class StreamStatisticsTest {
  /** Ten events over five nodes; node 4 first appears in the test part. */
  private static EventStream tenEvents() {
    EventTableBuilder b = new EventTableBuilder("ten", DataFormat.SNAP, LoadOptions.defaults());
    long[][] rows = {
      {0, 1, 1}, {1, 2, 2}, {2, 0, 2}, {0, 2, 3}, {1, 0, 4},
      {3, 1, 5}, {0, 1, 5}, {3, 0, 6}, {4, 0, 7}, {0, 1, 8}
    };
    for (int i = 0; i < rows.length; i++) {
      b.add(i + 1, rows[i][0], rows[i][1], rows[i][2]);
    }
    return b.finish();
  }

  @Test
  void countsSplitDegreesAndNewNodesOfATenEventStream() {
    StreamStatistics s = StreamStatistics.of(tenEvents());
    assertEquals(10, s.events());
    assertEquals(5, s.nodes());
    assertEquals(1.0, s.timeMin());
    assertEquals(8.0, s.timeMax());
    assertEquals(0.4, s.repeatedTimeShare()); // times 2, 2 and 5, 5
    assertEquals(4.0, s.degreeMean()); // 20 endpoints / 5 nodes
    // degrees: node 0: 8, node 1: 6, node 2: 3, node 3: 2, node 4: 1 -> sorted 1 2 3 6 8
    assertEquals(3, s.degreeMedian());
    assertEquals(8, s.degreeP99());
    assertEquals(8, s.degreeMax());
    assertEquals("70/15/15", s.splitSource());
    assertEquals(7, s.trainEvents());
    assertEquals(1, s.valEvents());
    assertEquals(2, s.testEvents());
    assertEquals(0, s.valEventsWithNewNodes());
    assertEquals(1, s.testEventsWithNewNodes()); // (4, 0) at time 7
  }

  @Test
  void nearestRankPicksTheSmallestValueCoveringThePercentile() {
    int[] sorted = new int[100];
    for (int i = 0; i < 100; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(50, StreamStatistics.nearestRank(sorted, 50));
    assertEquals(99, StreamStatistics.nearestRank(sorted, 99));
    assertEquals(7, StreamStatistics.nearestRank(new int[] {7}, 99));
  }
}
