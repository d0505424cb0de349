package dev.depbloom.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.model.config.ModelZoo;
import dev.depbloom.sampling.TemporalSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The reads of several plans of one memory, deduplicated across them. */
@Tag(Kernels.TRAINS)
class SharedReadsTest {
  @Test
  void eachNodeAndReadTimeIsOneRowAndEveryPlanFindsItsReadsThere() {
    //  event:   0   1   2   3        two slices: events 0-1 and 2-3, one negative each
    //  src:     0   1   0   2
    //  dst:     1   2   1   0
    //  time:    1   2   3   4
    EventStream events =
        TinyStreams.of(
            4, new int[] {0, 1, 0, 2}, new int[] {1, 2, 1, 0}, new double[] {1, 2, 3, 4}, 0);
    var config = ModelZoo.config("jodie", Map.of());
    Batch whole = Batch.of(events, 0, 0, 4, new int[] {2, 2, 3, 1});
    BatchGraph first =
        BatchGraph.build(whole.slice(0, 2), TemporalSample.ofLayers(List.of()), config);
    BatchGraph second =
        BatchGraph.build(whole.slice(2, 4), TemporalSample.ofLayers(List.of()), config);
    // first: roots 0@1 1@2 | 1@1 2@2 | 2@1 2@2 -> reads (0@1) (1@2) (1@1) (2@2) (2@1), the
    // negative 2@2 sharing the destination's read; second: 0@3 2@4 | 1@3 0@4 | 3@3 1@4 -> (0@3)
    // (2@4) (1@3) (0@4) (3@3) (1@4). The union groups them by node, in order of first appearance:
    // 0@1 0@3 0@4 | 1@2 1@1 1@3 1@4 | 2@2 2@1 2@4 | 3@3
    SharedReads shared = SharedReads.of(List.of(first, second));
    ReadPlan union = shared.reads();
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3}, union.readNode());
    assertArrayEquals(new double[] {1, 3, 4, 2, 1, 3, 4, 2, 1, 4, 3}, union.readTime());
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3}, union.readDistinct());
    assertArrayEquals(new int[] {0, 1, 2, 3}, union.distinctNodes());
    assertArrayEquals(new int[] {0, 3, 4, 7, 8}, shared.rows(0));
    assertArrayEquals(new int[] {1, 9, 5, 2, 10, 6}, shared.rows(1));
    assertEveryPlanFindsItsReads(List.of(first, second), shared);
  }

  @Test
  void aReadInTwoPlansIsOneRow() {
    EventStream events =
        TinyStreams.of(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {1, 1}, 0);
    var config = ModelZoo.config("jodie", Map.of());
    // both slices read node 2 at time 1 (a destination, then a negative)
    Batch whole = Batch.of(events, 0, 0, 2, new int[] {0, 2});
    BatchGraph first =
        BatchGraph.build(whole.slice(0, 1), TemporalSample.ofLayers(List.of()), config);
    BatchGraph second =
        BatchGraph.build(whole.slice(1, 2), TemporalSample.ofLayers(List.of()), config);
    SharedReads shared = SharedReads.of(List.of(first, second));
    // first: 0@1 1@1 0@1 -> reads (0@1) (1@1); second: 1@1 2@1 2@1 -> (1@1) (2@1)
    assertArrayEquals(new int[] {0, 1, 2}, shared.reads().readNode());
    assertArrayEquals(new int[] {0, 1}, shared.rows(0));
    assertArrayEquals(new int[] {1, 2}, shared.rows(1));
  }

  @Test
  void contiguousPartsShareOnlyTheNodesTheirBoundariesCut() {
    // three slices that all read nodes 0-3 (as a test batch's negatives are read in every slice),
    // at their own times: in order of appearance the parts would each read all four nodes
    EventStream events =
        TinyStreams.of(
            4,
            new int[] {0, 1, 2, 3, 0, 1},
            new int[] {2, 3, 0, 1, 3, 2},
            new double[] {1, 2, 3, 4, 5, 6},
            0);
    var config = ModelZoo.config("jodie", Map.of());
    Batch whole = Batch.of(events, 0, 0, 6, new int[] {1, 0, 3, 2, 1, 0});
    List<BatchGraph> plans = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      plans.add(
          BatchGraph.build(
              whole.slice(2 * p, 2 * p + 2), TemporalSample.ofLayers(List.of()), config));
    }
    SharedReads shared = SharedReads.of(plans);
    int rows = shared.reads().readCount();
    int parts = 4;
    int sum = 0;
    for (int i = 0; i < parts; i++) {
      sum += shared.part(i * rows / parts, (i + 1) * rows / parts).distinctNodes().length;
    }
    // 4 distinct nodes; each of the 3 inner boundaries may cut one node's reads in two
    int distinct = shared.reads().distinctNodes().length;
    assertEquals(4, distinct);
    assertTrue(sum <= distinct + parts - 1, sum + " distinct nodes over the parts");
    assertEveryPlanFindsItsReads(plans, shared);
  }

  /** Each read of each plan is the (node, read time) of its row in the union. */
  private static void assertEveryPlanFindsItsReads(List<BatchGraph> plans, SharedReads shared) {
    ReadPlan union = shared.reads();
    for (int plan = 0; plan < plans.size(); plan++) {
      ReadPlan own = plans.get(plan).reads();
      int[] rows = shared.rows(plan);
      for (int u = 0; u < own.readCount(); u++) {
        assertArrayEquals(
            new double[] {own.readNode()[u], own.readTime()[u]},
            new double[] {union.readNode()[rows[u]], union.readTime()[rows[u]]},
            "plan " + plan + ", read " + u);
      }
    }
  }
}
