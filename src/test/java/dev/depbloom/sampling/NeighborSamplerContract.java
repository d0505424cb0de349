package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.batch.BatchPlan;
import dev.depbloom.data.EventStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What every {@link NeighborSampler} must do, run against each implementation by a subclass. Checks
 * go against a brute-force scan of the event list ({@link BruteForceNeighborhood}), never against
 * the CSR the sampler uses.
 */
abstract class NeighborSamplerContract {
  /** Random stream: 60 nodes, 3,000 events at 400 distinct times (many ties), some self-loops. */
  static final EventStream EVENTS = TinyStreams.randomWithTies(7, 60, 3000, 400);

  static final TemporalCsr CSR = TemporalCsr.build(EVENTS, true);
  static final SnapshotWindows SNAPSHOTS = new SnapshotWindows(3, 40);

  /** A sampler of the implementation under test. */
  abstract NeighborSampler create(
      TemporalCsr csr, int[] fanouts, SnapshotWindows windows, int threads);

  /** How many samples the strategy gives a root with {@code eligible} eligible events. */
  abstract int expectedCount(int eligible, int fanout);

  /** The roots of one call, with the stream key it is sampled under. */
  record Queries(int index, int[] roots, double[] rootTimes) {}

  /** Batches of 100 events in time order, roots [src | dst | neg] at the events' times. */
  static List<Queries> batches(EventStream events) {
    SplittableRandom random = new SplittableRandom(11);
    List<Queries> out = new ArrayList<>();
    for (int[] b : BatchPlan.bounds(0, events.eventCount(), 100)) {
      int[] negatives = random.ints(b[1] - b[0], 0, events.nodeCount()).toArray();
      Batch batch = Batch.of(events, out.size(), b[0], b[1], negatives);
      out.add(new Queries(batch.index(), batch.roots(), batch.rootTimes()));
    }
    return out;
  }

  /** 1,000 roots: random nodes at random times, some before the first or after the last event. */
  static Queries randomQueries() {
    SplittableRandom random = new SplittableRandom(13);
    int[] roots = random.ints(1000, 0, EVENTS.nodeCount()).toArray();
    double[] times = random.doubles(1000, -5, 420).toArray();
    return new Queries(0, roots, times);
  }

  @Test
  void everySampleIsAnEligibleEventOfItsRootAndTheCountIsTheStrategys() {
    for (SnapshotWindows windows : List.of(SnapshotWindows.NONE, SNAPSHOTS)) {
      try (NeighborSampler sampler = create(CSR, new int[] {4, 3}, windows, 2)) {
        for (Queries batch : List.of(batches(EVENTS).get(17), randomQueries())) {
          TemporalSample sample = sampler.sample(batch.roots(), batch.rootTimes(), 5);
          checkEligible(sample, batch.roots(), batch.rootTimes(), windows);
        }
      }
    }
  }

  @Test
  void neverSamplesAnEventAtOrAfterItsRootsQueryTime() {
    try (NeighborSampler sampler = create(CSR, new int[] {10, 10}, SnapshotWindows.NONE, 2)) {
      for (Queries batch : batches(EVENTS)) {
        TemporalSample sample = sampler.sample(batch.roots(), batch.rootTimes(), batch.index());
        forEachRoot(
            sample,
            batch.roots(),
            batch.rootTimes(),
            SnapshotWindows.NONE,
            (s, l, layer, r, node, t) -> {
              for (int j = layer.offsets()[r]; j < layer.offsets()[r + 1]; j++) {
                assertTrue(layer.edgeTimes()[j] < t, "edge at or after the query time");
                assertTrue(layer.timeDeltas()[j] > 0, "time delta not positive");
              }
            });
      }
    }
  }

  @Test
  void respectsTheFanoutOfEveryLayerAndSnapshot() {
    int[] fanouts = {3, 2, 2};
    try (NeighborSampler sampler = create(CSR, fanouts, SNAPSHOTS, 1)) {
      Queries batch = batches(EVENTS).get(25);
      TemporalSample sample = sampler.sample(batch.roots(), batch.rootTimes(), 1);
      assertEquals(3, sample.snapshotCount());
      for (List<SampledLayer> layers : sample.snapshots()) {
        assertEquals(3, layers.size());
        int roots = batch.roots().length;
        for (int l = 0; l < 3; l++) {
          SampledLayer layer = layers.get(l);
          assertEquals(fanouts[l], layer.fanout());
          assertEquals(roots, layer.rootCount());
          for (int r = 0; r < roots; r++) {
            assertTrue(layer.countOf(r) <= fanouts[l]);
          }
          roots = layer.sampleCount();
        }
      }
    }
  }

  @Test
  void ordersEachRootsSamplesOldestToNewest() {
    try (NeighborSampler sampler = create(CSR, new int[] {8, 8}, SnapshotWindows.NONE, 2)) {
      Queries batch = batches(EVENTS).get(20);
      TemporalSample sample = sampler.sample(batch.roots(), batch.rootTimes(), 3);
      for (SampledLayer layer : sample.layers()) {
        for (int r = 0; r < layer.rootCount(); r++) {
          for (int j = layer.offsets()[r] + 1; j < layer.offsets()[r + 1]; j++) {
            boolean ordered =
                layer.edgeTimes()[j - 1] < layer.edgeTimes()[j]
                    || (layer.edgeTimes()[j - 1] == layer.edgeTimes()[j]
                        && layer.edgeIds()[j - 1] <= layer.edgeIds()[j]);
            assertTrue(ordered, "samples of root " + r + " out of (time, event id) order");
          }
        }
      }
    }
  }

  @Test
  void givesIdenticalSamplesForOneTwoAndFourThreads() {
    // Large enough that every layer is cut into four chunks (see RootChunkPool.MIN_CHUNK_WORK).
    EventStream events = TinyStreams.randomWithTies(9, 500, 30_000, 4_000);
    TemporalCsr csr = TemporalCsr.build(events, true);
    List<Queries> calls = new ArrayList<>();
    for (int[] b : BatchPlan.bounds(0, events.eventCount(), 3000)) {
      int[] negatives = new SplittableRandom(b[0]).ints(b[1] - b[0], 0, 500).toArray();
      Batch batch = Batch.of(events, calls.size(), b[0], b[1], negatives);
      calls.add(new Queries(batch.index(), batch.roots(), batch.rootTimes()));
    }
    SplittableRandom random = new SplittableRandom(21);
    calls.add(
        new Queries(
            calls.size(),
            random.ints(9000, 0, 500).toArray(),
            random.doubles(9000, 0, 4000).toArray()));
    for (SnapshotWindows windows : List.of(SnapshotWindows.NONE, new SnapshotWindows(2, 500))) {
      List<TemporalSample> reference = sampleAll(create(csr, new int[] {10, 5}, windows, 1), calls);
      SampledLayer lastSecondLayer = reference.get(calls.size() - 2).layers().get(1);
      assertTrue(lastSecondLayer.rootCount() * 5L >= 4 * RootChunkPool.MIN_CHUNK_WORK);
      for (int threads : new int[] {2, 4}) {
        List<TemporalSample> other =
            sampleAll(create(csr, new int[] {10, 5}, windows, threads), calls);
        for (int i = 0; i < reference.size(); i++) {
          assertSameSample(reference.get(i), other.get(i));
        }
      }
    }
  }

  @Test
  void givesIdenticalSamplesWhateverTheOrderOfCallsAndResets() {
    List<Queries> batches = batches(EVENTS);
    List<TemporalSample> inOrder = sampleAll(create(CSR, new int[] {6}, SnapshotWindows.NONE, 2));
    try (NeighborSampler sampler = create(CSR, new int[] {6}, SnapshotWindows.NONE, 2)) {
      SplittableRandom random = new SplittableRandom(3);
      for (int k = 0; k < 80; k++) {
        int i = random.nextInt(batches.size());
        if (random.nextInt(10) == 0) {
          sampler.reset();
        }
        Queries b = batches.get(i);
        assertSameSample(inOrder.get(i), sampler.sample(b.roots(), b.rootTimes(), i));
      }
    }
  }

  @Test
  void givesNoSamplesToNoRoots() {
    try (NeighborSampler sampler = create(CSR, new int[] {4, 4}, SNAPSHOTS, 2)) {
      TemporalSample sample = sampler.sample(new int[0], new double[0], 0);
      assertEquals(0, sample.sampleCount());
      assertEquals(0, sample.layers().get(1).rootCount());
    }
  }

  @Test
  void rejectsANanQueryTimeAndARootOutsideTheGraph() {
    try (NeighborSampler sampler = create(CSR, new int[] {4}, SnapshotWindows.NONE, 1)) {
      assertThrows(
          IllegalArgumentException.class,
          () -> sampler.sample(new int[] {1}, new double[] {Double.NaN}, 0));
      assertThrows(
          IllegalArgumentException.class,
          () -> sampler.sample(new int[] {60}, new double[] {5}, 0));
      assertThrows(
          IllegalArgumentException.class,
          () -> sampler.sample(new int[] {1, 2}, new double[] {5}, 0));
    }
  }

  @Test
  void samplingGroupsOfRootsUnderTheirKeysEqualsOneCallRootByRoot() {
    for (SnapshotWindows windows : List.of(SnapshotWindows.NONE, SNAPSHOTS)) {
      try (NeighborSampler sampler = create(CSR, new int[] {4, 3}, windows, 2)) {
        for (Queries call : List.of(batchWithNegatives(17, 5), randomQueries())) {
          int[] keys = new int[call.roots().length];
          Arrays.setAll(keys, r -> r);
          TemporalSample whole = sampler.sample(call.roots(), call.rootTimes(), 4, keys);
          for (int[] group : negativeGroups(100, call.roots().length / 100 - 2, 3)) {
            TemporalSample part =
                sampler.sample(
                    pick(call.roots(), group), pick(call.rootTimes(), group), 4, group.clone());
            assertEquals(List.of(), mismatchedRoots(whole, group, part), "windows " + windows);
          }
        }
      }
    }
  }

  @Test
  void theThreeArgumentSampleKeysEachRootByItsPosition() {
    for (SnapshotWindows windows : List.of(SnapshotWindows.NONE, SNAPSHOTS)) {
      try (NeighborSampler sampler = create(CSR, new int[] {4, 3}, windows, 2)) {
        Queries call = randomQueries();
        int[] keys = new int[call.roots().length];
        Arrays.setAll(keys, r -> r);
        assertSameSample(
            sampler.sample(call.roots(), call.rootTimes(), 6),
            sampler.sample(call.roots(), call.rootTimes(), 6, keys));
      }
    }
  }

  @Test
  void rejectsRootKeysOfAnotherLength() {
    try (NeighborSampler sampler = create(CSR, new int[] {4}, SnapshotWindows.NONE, 1)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> sampler.sample(new int[] {1, 2}, new double[] {5, 6}, 0, new int[] {0}));
      assertEquals("2 roots but 1 root keys", e.getMessage());
    }
  }

  /**
   * Roots of {@code count} events from {@code 100 * batch} with {@code k} random negatives each,
   * laid out [src | dst | neg_0 | ... | neg_k-1] as the test pass lays them out.
   */
  static Queries batchWithNegatives(int batch, int k) {
    int start = 100 * batch;
    int[] negatives = new SplittableRandom(batch).ints(100 * k, 0, EVENTS.nodeCount()).toArray();
    Batch b = Batch.of(EVENTS, batch, start, start + 100, negatives);
    return new Queries(batch, b.roots(), b.rootTimes());
  }

  /**
   * Root positions of the grouped test pass over {@code b} events with {@code k} negatives each:
   * group g holds the true endpoints {@code [0, 2b)} and negatives {@code [g * size, (g + 1) *
   * size)}, the last group fewer.
   */
  static List<int[]> negativeGroups(int b, int k, int size) {
    List<int[]> groups = new ArrayList<>();
    for (int first = 0; first < k; first += size) {
      int count = Math.min(size, k - first);
      int[] positions = new int[(2 + count) * b];
      for (int p = 0; p < positions.length; p++) {
        positions[p] = p < 2 * b ? p : (2 + first) * b + (p - 2 * b);
      }
      groups.add(positions);
    }
    return groups;
  }

  static int[] pick(int[] values, int[] positions) {
    return Arrays.stream(positions).map(p -> values[p]).toArray();
  }

  static double[] pick(double[] values, int[] positions) {
    return Arrays.stream(positions).mapToDouble(p -> values[p]).toArray();
  }

  /**
   * Roots of {@code part} whose samples differ from those of the same root in {@code whole}, in
   * every layer and snapshot; {@code part}'s root r is {@code whole}'s root {@code positions[r]},
   * and a deeper layer's root is followed through its parent and its index among the parent's
   * samples.
   */
  static List<String> mismatchedRoots(TemporalSample whole, int[] positions, TemporalSample part) {
    List<String> out = new ArrayList<>();
    for (int s = 0; s < whole.snapshotCount(); s++) {
      int[] wholeRoot = positions;
      List<SampledLayer> w = whole.snapshots().get(s);
      List<SampledLayer> p = part.snapshots().get(s);
      for (int l = 0; l < w.size(); l++) {
        SampledLayer a = w.get(l);
        SampledLayer b = p.get(l);
        int[] next = new int[b.sampleCount()];
        for (int r = 0; r < b.rootCount(); r++) {
          int q = wholeRoot[r];
          int from = a.offsets()[q];
          int at = b.offsets()[r];
          boolean same = a.countOf(q) == b.countOf(r);
          for (int i = 0; same && i < b.countOf(r); i++) {
            same =
                a.nodes()[from + i] == b.nodes()[at + i]
                    && a.edgeIds()[from + i] == b.edgeIds()[at + i]
                    && a.edgeTimes()[from + i] == b.edgeTimes()[at + i]
                    && a.timeDeltas()[from + i] == b.timeDeltas()[at + i];
            next[at + i] = from + i;
          }
          if (!same) {
            out.add("snapshot " + s + ", layer " + l + ", root " + r + " (whole root " + q + ")");
          }
        }
        if (!out.isEmpty()) {
          return out; // deeper layers of mismatched roots cannot be paired
        }
        wholeRoot = next;
      }
    }
    return out;
  }

  /** Every batch of {@link #batches} in time order, stream key = batch index; closes sampler. */
  static List<TemporalSample> sampleAll(NeighborSampler sampler) {
    return sampleAll(sampler, batches(EVENTS));
  }

  /** Every call in order, stream key = the call's index; closes the sampler. */
  static List<TemporalSample> sampleAll(NeighborSampler sampler, List<Queries> calls) {
    try (sampler) {
      List<TemporalSample> out = new ArrayList<>();
      for (Queries q : calls) {
        out.add(sampler.sample(q.roots(), q.rootTimes(), q.index()));
      }
      return out;
    }
  }

  static void assertSameSample(TemporalSample expected, TemporalSample actual) {
    assertEquals(expected.snapshotCount(), actual.snapshotCount());
    for (int s = 0; s < expected.snapshotCount(); s++) {
      List<SampledLayer> a = expected.snapshots().get(s);
      List<SampledLayer> b = actual.snapshots().get(s);
      assertEquals(a.size(), b.size());
      for (int l = 0; l < a.size(); l++) {
        assertArrayEquals(a.get(l).offsets(), b.get(l).offsets());
        assertArrayEquals(a.get(l).nodes(), b.get(l).nodes());
        assertArrayEquals(a.get(l).edgeIds(), b.get(l).edgeIds());
        assertArrayEquals(a.get(l).edgeTimes(), b.get(l).edgeTimes());
        assertArrayEquals(a.get(l).timeDeltas(), b.get(l).timeDeltas());
      }
    }
  }

  private void checkEligible(
      TemporalSample sample, int[] roots, double[] times, SnapshotWindows windows) {
    BruteForceNeighborhood brute = new BruteForceNeighborhood(EVENTS);
    forEachRoot(
        sample,
        roots,
        times,
        windows,
        (s, l, layer, r, node, t) -> {
          List<BruteForceNeighborhood.Entry> eligible =
              brute.eligible(node, windows.windowStart(t, s), windows.windowEnd(t, s));
          assertEquals(
              expectedCount(eligible.size(), layer.fanout()),
              layer.countOf(r),
              "sample count of root " + r + " in layer " + l + " of snapshot " + s);
          Set<BruteForceNeighborhood.Entry> allowed = new HashSet<>(eligible);
          for (int j = layer.offsets()[r]; j < layer.offsets()[r + 1]; j++) {
            BruteForceNeighborhood.Entry got =
                new BruteForceNeighborhood.Entry(
                    layer.edgeIds()[j], layer.nodes()[j], layer.edgeTimes()[j]);
            assertTrue(allowed.contains(got), got + " is not eligible for root " + r);
            assertEquals((float) (t - layer.edgeTimes()[j]), layer.timeDeltas()[j]);
          }
        });
  }

  /** Visits every root of every layer and snapshot with its node and query time. */
  interface RootVisitor {
    void visit(int snapshot, int layerIndex, SampledLayer layer, int root, int node, double t);
  }

  /**
   * Layer 0's roots are the query roots; layer l+1's are layer l's samples, queried at their edge
   * times, or at their first-layer root's time with snapshot windows.
   */
  static void forEachRoot(
      TemporalSample sample,
      int[] roots,
      double[] times,
      SnapshotWindows windows,
      RootVisitor visitor) {
    for (int s = 0; s < sample.snapshotCount(); s++) {
      int[] nodes = roots;
      double[] queryTimes = times;
      List<SampledLayer> layers = sample.snapshots().get(s);
      for (int l = 0; l < layers.size(); l++) {
        SampledLayer layer = layers.get(l);
        for (int r = 0; r < layer.rootCount(); r++) {
          visitor.visit(s, l, layer, r, nodes[r], queryTimes[r]);
        }
        double[] next = new double[layer.sampleCount()];
        int[] rootIndex = layer.rootIndex();
        for (int j = 0; j < next.length; j++) {
          next[j] = windows.windowed() ? queryTimes[rootIndex[j]] : layer.edgeTimes()[j];
        }
        nodes = layer.nodes();
        queryTimes = next;
      }
    }
  }
}
