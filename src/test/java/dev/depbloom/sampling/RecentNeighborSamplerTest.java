package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecentNeighborSamplerTest extends NeighborSamplerContract {
  private static final TemporalCsr HAND = TemporalCsr.build(TinyStreams.handBuilt(), true);

  @Override
  NeighborSampler create(TemporalCsr csr, int[] fanouts, SnapshotWindows windows, int threads) {
    return new RecentNeighborSampler(csr, fanouts, windows, threads);
  }

  @Override
  int expectedCount(int eligible, int fanout) {
    return Math.min(eligible, fanout);
  }

  private static SampledLayer layer0(TemporalSample sample) {
    return sample.layers().get(0);
  }

  @Test
  void takesTheLastNEventsStrictlyBeforeTheQueryTime() {
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, 2)) {
      SampledLayer layer = layer0(sampler.sample(new int[] {0}, new double[] {5.5}, 0));
      assertArrayEquals(new int[] {0, 2}, layer.offsets());
      assertArrayEquals(new int[] {1, 3}, layer.nodes());
      assertArrayEquals(new int[] {5, 6}, layer.edgeIds());
      assertArrayEquals(new double[] {5, 5}, layer.edgeTimes());
      assertArrayEquals(new float[] {0.5f, 0.5f}, layer.timeDeltas());
    }
  }

  @Test
  void excludesEventsAtTheQueryTime() {
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, 2)) {
      SampledLayer layer = layer0(sampler.sample(new int[] {0}, new double[] {5}, 0));
      assertArrayEquals(new int[] {2, 3}, layer.nodes());
      assertArrayEquals(new int[] {1, 3}, layer.edgeIds());
      assertArrayEquals(new double[] {2, 3}, layer.edgeTimes());
      assertArrayEquals(new float[] {3, 2}, layer.timeDeltas());
    }
  }

  @Test
  void countsASelfLoopTwice() {
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, 3)) {
      SampledLayer layer = layer0(sampler.sample(new int[] {2}, new double[] {10}, 0));
      assertArrayEquals(new int[] {1, 2, 2}, layer.nodes());
      assertArrayEquals(new int[] {2, 4, 4}, layer.edgeIds());
    }
  }

  @Test
  void givesANodeWithFewerEventsAllOfThemAndOneWithoutEventsNone() {
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, 2)) {
      SampledLayer layer = layer0(sampler.sample(new int[] {3, 1}, new double[] {4, 1}, 0));
      assertArrayEquals(new int[] {0, 1, 1}, layer.offsets());
      assertArrayEquals(new int[] {0}, layer.nodes());
      assertArrayEquals(new int[] {3}, layer.edgeIds());
    }
  }

  @Test
  void queriesTheSecondLayerAtTheFirstLayersEdgeTimes() {
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, 2, 2)) {
      TemporalSample sample = sampler.sample(new int[] {1}, new double[] {7}, 0);
      SampledLayer first = sample.layers().get(0);
      assertArrayEquals(new int[] {0, 3}, first.nodes());
      assertArrayEquals(new int[] {5, 7}, first.edgeIds());
      SampledLayer second = sample.layers().get(1);
      assertArrayEquals(new int[] {0, 2, 4}, second.offsets());
      assertArrayEquals(new int[] {2, 3, 0, 0}, second.nodes());
      assertArrayEquals(new int[] {1, 3, 3, 6}, second.edgeIds());
      assertArrayEquals(new double[] {2, 3, 3, 5}, second.edgeTimes());
      assertArrayEquals(new float[] {3, 2, 3, 1}, second.timeDeltas());
    }
  }

  @Test
  void snapshotWindowsIncludeTheirStartAndExcludeTheirEnd() {
    SnapshotWindows twoOfTwo = new SnapshotWindows(2, 2); // [1, 3) and [3, 5) for t = 5
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, new int[] {10}, twoOfTwo, 1)) {
      TemporalSample sample = sampler.sample(new int[] {0}, new double[] {5}, 0);
      assertArrayEquals(new int[] {0, 1}, sample.snapshots().get(0).get(0).edgeIds());
      assertArrayEquals(new int[] {3}, sample.snapshots().get(1).get(0).edgeIds());
    }
    SnapshotWindows threeOfOne = new SnapshotWindows(3, 1); // [2.5,3.5) [3.5,4.5) [4.5,5.5)
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, new int[] {10}, threeOfOne, 1)) {
      TemporalSample sample = sampler.sample(new int[] {0}, new double[] {5.5}, 0);
      assertArrayEquals(new int[] {3}, sample.snapshots().get(0).get(0).edgeIds());
      assertArrayEquals(new int[] {}, sample.snapshots().get(1).get(0).edgeIds());
      assertArrayEquals(new int[] {5, 6}, sample.snapshots().get(2).get(0).edgeIds());
    }
  }

  @Test
  void queriesEveryLayerOfASnapshotAtTheRootsTimeInsideTheWindow() {
    SnapshotWindows windows = new SnapshotWindows(2, 2); // [3, 5) and [5, 7) for t = 7
    try (NeighborSampler sampler = new RecentNeighborSampler(HAND, new int[] {2, 2}, windows, 1)) {
      TemporalSample sample = sampler.sample(new int[] {1}, new double[] {7}, 0);
      List<SampledLayer> older = sample.snapshots().get(0);
      assertArrayEquals(new int[] {2}, older.get(0).edgeIds());
      assertArrayEquals(new int[] {2, 2}, older.get(1).nodes());
      assertArrayEquals(new int[] {4, 4}, older.get(1).edgeIds());
      assertArrayEquals(new float[] {3, 3}, older.get(1).timeDeltas());
      List<SampledLayer> newer = sample.snapshots().get(1);
      assertArrayEquals(new int[] {5, 7}, newer.get(0).edgeIds());
      assertArrayEquals(new int[] {0, 2, 4}, newer.get(1).offsets());
      assertArrayEquals(new int[] {5, 6, 6, 7}, newer.get(1).edgeIds());
      assertArrayEquals(new float[] {2, 2, 2, 1}, newer.get(1).timeDeltas());
    }
  }

  @Test
  void agreesWithABruteForceScanOnRandomQuerySequences() {
    BruteForceNeighborhood brute = new BruteForceNeighborhood(EVENTS);
    List<Queries> batches = batches(EVENTS);
    SplittableRandom random = new SplittableRandom(5);
    for (SnapshotWindows windows : List.of(SnapshotWindows.NONE, SNAPSHOTS)) {
      try (NeighborSampler sampler = create(CSR, new int[] {7, 3}, windows, 2)) {
        for (int k = 0; k < 60; k++) {
          // Mostly forward in time, as training walks; sometimes back, sometimes after a reset.
          int i = k < 30 ? k : random.nextInt(batches.size());
          if (random.nextInt(8) == 0) {
            sampler.reset();
          }
          Queries q = batches.get(i);
          TemporalSample sample = sampler.sample(q.roots(), q.rootTimes(), i);
          forEachRoot(
              sample,
              q.roots(),
              q.rootTimes(),
              windows,
              (s, l, layer, r, node, t) -> {
                List<BruteForceNeighborhood.Entry> expected =
                    brute.recent(
                        node, windows.windowStart(t, s), windows.windowEnd(t, s), layer.fanout());
                int from = layer.offsets()[r];
                assertEquals(expected.size(), layer.countOf(r));
                for (int j = 0; j < expected.size(); j++) {
                  assertEquals(expected.get(j).edgeId(), layer.edgeIds()[from + j]);
                  assertEquals(expected.get(j).neighbor(), layer.nodes()[from + j]);
                }
              });
        }
      }
    }
  }
}
