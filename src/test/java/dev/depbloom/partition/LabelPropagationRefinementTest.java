package dev.depbloom.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LabelPropagationRefinementTest {
  /** Local ids of {@link TopologyPartitionerTest#twoTriangles()}: nodes 0, 1, 3, 4, 2, 5. */
  private static final WindowGraph GRAPH =
      WindowGraph.of(TopologyPartitionerTest.twoTriangles(), 0, 8);

  @Test
  void windowGraphNumbersNodesByFirstAppearanceAndWeighsThemBySourceEvents() {
    assertArrayEquals(new int[] {0, 1, 3, 4, 2, 5}, GRAPH.nodes);
    assertArrayEquals(new int[] {2, 1, 2, 1, 1, 1}, GRAPH.weight);
    assertEquals(8, GRAPH.totalWeight);
    // node 0 (local 0): events 0 (with node 1, local 1), 4 and 6 (with node 2, local 4)
    int[] links = new int[3];
    GRAPH.linksByPart(0, new int[] {0, 2, 0, 0, 1, 0}, links);
    assertArrayEquals(new int[] {0, 2, 1}, links);
  }

  /** Node 2 (local 4) starts with the other triangle; its three links pull it back. */
  @Test
  void aMisplacedNodeMovesToThePartItSharesMostEventsWith() {
    int[] part = {0, 0, 1, 1, 1, 1};
    long[] load = {3, 5};
    int rounds = LabelPropagationRefinement.refine(GRAPH, part, load, 4.2, 8);
    assertArrayEquals(new int[] {0, 0, 1, 1, 0, 1}, part);
    assertArrayEquals(new long[] {4, 4}, load);
    assertEquals(2, rounds); // one round moves, the next finds nothing to move
  }

  @Test
  void aMoveThatWouldExceedTheCapacityIsNotMade() {
    int[] part = {0, 0, 1, 1, 1, 1};
    long[] load = {3, 5};
    LabelPropagationRefinement.refine(GRAPH, part, load, 3.5, 8);
    assertArrayEquals(new int[] {0, 0, 1, 1, 1, 1}, part);
    assertArrayEquals(new long[] {3, 5}, load);
  }
}
