package dev.depbloom.sampling;

import static dev.depbloom.sampling.NeighborSamplerContract.assertSameSample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.EventStream;
import dev.depbloom.sampling.NeighborSamplerContract.Queries;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The index serving appends to samples exactly what the temporal CSR samples on the same events,
 * with and without time cursors, whatever chunks the events arrived in; readers see published
 * events only.
 */
class LiveNeighborIndexTest {
  private static final EventStream EVENTS = NeighborSamplerContract.EVENTS; // 3,000 events, ties
  private static final SnapshotWindows SNAPSHOTS = NeighborSamplerContract.SNAPSHOTS;

  /** The samplers compared: recent and uniform, one and two layers, with and without snapshots. */
  private static List<SamplerConfig> configs() {
    List<SamplerConfig> out = new ArrayList<>();
    for (SamplingStrategy strategy : SamplingStrategy.values()) {
      for (List<Integer> fanouts : List.of(List.of(10), List.of(4, 3))) {
        SamplerConfig c = SamplerConfig.of(strategy, fanouts).withSeed(17);
        out.add(c);
        out.add(c.withSnapshots(SNAPSHOTS.history(), SNAPSHOTS.duration()));
      }
    }
    return out;
  }

  /** The index of events {@code [0, count)}, appended in random chunks, each one published. */
  private static LiveNeighborIndex appendedInChunks(int count, long seed) {
    LiveNeighborIndex index = new LiveNeighborIndex(EVENTS.nodeCount() + 5);
    SplittableRandom random = new SplittableRandom(seed);
    int e = 0;
    while (e < count) {
      int end = Math.min(count, e + 1 + random.nextInt(150));
      for (; e < end; e++) {
        index.append(EVENTS.sources()[e], EVENTS.destinations()[e], EVENTS.times()[e], e);
      }
      index.publish();
    }
    return index;
  }

  private static List<Queries> queries() {
    List<Queries> calls = new ArrayList<>(NeighborSamplerContract.batches(EVENTS));
    calls.add(NeighborSamplerContract.randomQueries());
    return calls;
  }

  @Test
  void samplesExactlyWhatTheCsrSamplesOnTheSameEvents() {
    TemporalCsr csr = TemporalCsr.build(EVENTS, true);
    LiveNeighborIndex live = appendedInChunks(EVENTS.eventCount(), 3);
    List<Queries> calls = queries();
    for (SamplerConfig config : configs()) {
      List<TemporalSample> expected =
          NeighborSamplerContract.sampleAll(NeighborSamplerFactory.create(config, csr), calls);
      List<TemporalSample> cursors =
          NeighborSamplerContract.sampleAll(
              NeighborSamplerFactory.create(config, live.published()), calls);
      List<TemporalSample> reentrant =
          NeighborSamplerContract.sampleAll(
              NeighborSamplerFactory.createReentrant(config, live.published()), calls);
      for (int i = 0; i < calls.size(); i++) {
        assertSameSample(expected.get(i), cursors.get(i));
        assertSameSample(expected.get(i), reentrant.get(i));
      }
    }
  }

  /** After each of several prefixes, the index samples what the CSR of that prefix samples. */
  @Test
  void aGrowingIndexSamplesWhatTheCsrOfItsEventsSamples() {
    SamplerConfig config = SamplerConfig.of(SamplingStrategy.RECENT, List.of(5, 2));
    LiveNeighborIndex live = new LiveNeighborIndex(EVENTS.nodeCount());
    Queries probe = NeighborSamplerContract.randomQueries();
    try (NeighborSampler cursors = NeighborSamplerFactory.create(config, live.published())) {
      int e = 0;
      for (int prefix : new int[] {1, 7, 400, 401, 1750, 3000}) {
        for (; e < prefix; e++) {
          live.append(EVENTS.sources()[e], EVENTS.destinations()[e], EVENTS.times()[e], e);
        }
        live.publish();
        try (NeighborSampler csr =
            NeighborSamplerFactory.create(config, TemporalCsr.build(EVENTS, prefix, true))) {
          assertSameSample(
              csr.sample(probe.roots(), probe.rootTimes(), 1),
              cursors.sample(probe.roots(), probe.rootTimes(), 1));
        }
      }
    }
  }

  @Test
  void readersSeePublishedEventsOnlyAndDiscardedEventsAreGone() {
    LiveNeighborIndex live = appendedInChunks(2000, 5);
    TemporalCsr before = TemporalCsr.build(EVENTS, 2000, true);
    TemporalCsr after = TemporalCsr.build(EVENTS, 2100, true);
    SamplerConfig config = SamplerConfig.of(SamplingStrategy.RECENT, List.of(6));
    Queries probe = NeighborSamplerContract.randomQueries();
    for (int e = 2000; e < 2100; e++) {
      live.append(EVENTS.sources()[e], EVENTS.destinations()[e], EVENTS.times()[e], e);
    }
    assertSameSample(sample(config, before, probe), sample(config, live.published(), probe));
    assertSameSample(sample(config, after, probe), sample(config, live.pending(), probe));
    live.discardPending();
    assertSameSample(sample(config, before, probe), sample(config, live.pending(), probe));
    for (int e = 2000; e < 2100; e++) { // the discarded ids may be appended again
      live.append(EVENTS.sources()[e], EVENTS.destinations()[e], EVENTS.times()[e], e);
    }
    live.publish();
    assertSameSample(sample(config, after, probe), sample(config, live.published(), probe));
    assertEquals(after.degree(0), live.publishedDegree(0));
  }

  @Test
  void rejectsAnEventBeforeAnEndpointsLatestAndEdgeIdsThatDoNotIncrease() {
    LiveNeighborIndex live = new LiveNeighborIndex(4);
    live.append(0, 1, 5.0, 0);
    IllegalArgumentException late =
        assertThrows(IllegalArgumentException.class, () -> live.append(1, 2, 4.0, 1));
    assertEquals(
        "event 1 at time 4.0 is before an earlier event of its endpoints", late.getMessage());
    assertThrows(IllegalArgumentException.class, () -> live.append(2, 3, 6.0, 0));
    assertThrows(IllegalArgumentException.class, () -> live.append(2, 4, 6.0, 2));
    live.append(2, 3, 4.0, 1); // other nodes may still be at earlier times
  }

  private static TemporalSample sample(SamplerConfig config, TemporalAdjacency rows, Queries q) {
    try (NeighborSampler s = NeighborSamplerFactory.createReentrant(config, rows)) {
      return s.sample(q.roots(), q.rootTimes(), 2);
    }
  }
}
