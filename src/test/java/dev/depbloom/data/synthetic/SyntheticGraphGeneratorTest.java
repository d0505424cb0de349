package dev.depbloom.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.InputException;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

class SyntheticGraphGeneratorTest {
  /** The defaults but for the parameters a test varies. */
  private static SyntheticGraphConfig config(
      int nodes, int events, int communities, double cross, double exponent, long seed) {
    return new SyntheticGraphConfig(
        nodes, events, communities, cross, false, 0, 0, seed, exponent, 0.3, 8, 256);
  }

  private static SyntheticGraphConfig withFeatures(SyntheticGraphConfig c, int dim) {
    return new SyntheticGraphConfig(
        c.nodes(),
        c.events(),
        c.communities(),
        c.crossCommunityShare(),
        c.bipartite(),
        c.items(),
        dim,
        c.seed(),
        c.activityExponent(),
        c.repeatShare(),
        c.meanSessionLength(),
        c.concurrentSessions());
  }

  private static SyntheticGraphConfig sessions(double repeat, double length, int concurrent) {
    return new SyntheticGraphConfig(
        10_000, 200_000, 10, 0.1, false, 0, 0, 5, 0, repeat, length, concurrent);
  }

  private static float[] features(EventStream events) {
    return ((HeapFeatureMatrix) events.edgeFeatures()).values();
  }

  @Test
  void sameSeedGivesIdenticalStreams() {
    SyntheticGraphConfig c = withFeatures(config(2_000, 20_000, 4, 0.1, 1, 42), 3);
    EventStream a = SyntheticGraphGenerator.generate(c).events();
    EventStream b = SyntheticGraphGenerator.generate(c).events();
    assertArrayEquals(a.sources(), b.sources());
    assertArrayEquals(a.destinations(), b.destinations());
    assertArrayEquals(a.times(), b.times());
    assertArrayEquals(features(a), features(b));
    assertEquals(a.ingest(), b.ingest());
  }

  @Test
  void differentSeedGivesDifferentStreams() {
    EventStream a =
        SyntheticGraphGenerator.generate(withFeatures(config(2_000, 20_000, 4, 0.1, 1, 1), 3))
            .events();
    EventStream b =
        SyntheticGraphGenerator.generate(withFeatures(config(2_000, 20_000, 4, 0.1, 1, 2), 3))
            .events();
    assertFalse(Arrays.equals(a.sources(), b.sources()));
    assertFalse(Arrays.equals(a.destinations(), b.destinations()));
    assertFalse(Arrays.equals(a.times(), b.times()));
    assertFalse(Arrays.equals(features(a), features(b)));
  }

  @Test
  void outputDoesNotDependOnTheNumberOfThreads() throws Exception {
    // 200,000 rows fill four feature blocks, so the parallel fill really splits.
    SyntheticGraphConfig c = withFeatures(config(2_000, 200_000, 4, 0.1, 1, 9), 2);
    ForkJoinPool one = new ForkJoinPool(1);
    ForkJoinPool four = new ForkJoinPool(4);
    try {
      EventStream a = one.submit(() -> SyntheticGraphGenerator.generate(c).events()).get();
      EventStream b = four.submit(() -> SyntheticGraphGenerator.generate(c).events()).get();
      assertArrayEquals(a.sources(), b.sources());
      assertArrayEquals(a.times(), b.times());
      assertArrayEquals(features(a), features(b));
    } finally {
      one.shutdown();
      four.shutdown();
    }
  }

  @Test
  void timesIncreaseAndIdsStayInRange() {
    EventStream events =
        SyntheticGraphGenerator.generate(config(1_000, 50_000, 5, 0.1, 1, 3)).events();
    assertEquals(50_000, events.eventCount());
    assertEquals(1_000, events.nodeCount());
    double[] t = events.times();
    for (int i = 1; i < t.length; i++) {
      assertTrue(t[i] >= t[i - 1], "event " + i);
    }
    // Gaps are exponential with mean 1, so 50,000 events span about 50,000 time units.
    assertTrue(Math.abs(t[t.length - 1] - 50_000) < 1_000, "last time " + t[t.length - 1]);
    for (int i = 0; i < events.eventCount(); i++) {
      int s = events.sources()[i];
      int d = events.destinations()[i];
      assertTrue(s >= 0 && s < 1_000 && d >= 0 && d < 1_000 && s != d, "event " + i);
    }
    assertNull(events.splitLabels());
    assertEquals(0, events.edgeFeatures().dim());
    assertTrue(events.nodeIds().isIdentity());
  }

  @Test
  void topOnePercentOfNodesHoldsHalfTheEndpointsUnderZipfActivity() {
    // Zipf exponent 1 over 20,000 nodes puts H(200) / H(20000) = 0.56 of the activity on the
    // top 1%; avoiding self-loops moves a little of it off the hubs. Uniform activity gives ~1%.
    double skewed =
        topPercentShare(
            SyntheticGraphGenerator.generate(config(20_000, 200_000, 20, 0.1, 1, 4)).events());
    double uniform =
        topPercentShare(
            SyntheticGraphGenerator.generate(config(20_000, 200_000, 20, 0.1, 0, 4)).events());
    assertTrue(skewed >= 0.45, "top 1% share " + skewed);
    assertTrue(uniform <= 0.10, "top 1% share with uniform activity " + uniform);
  }

  @Test
  void crossCommunityShareIsWhatWasAskedFor() {
    for (double asked : new double[] {0.05, 0.2, 0.5}) {
      SyntheticGraph g = SyntheticGraphGenerator.generate(config(10_000, 200_000, 10, asked, 1, 6));
      double share = crossShare(g);
      assertEquals(asked, share, 0.01, "asked " + asked);
    }
    assertEquals(
        0.0, crossShare(SyntheticGraphGenerator.generate(config(10_000, 200_000, 10, 0, 1, 6))));
  }

  @Test
  void bipartiteGraphHasUsersAsSourcesAndItemsAsDestinations() {
    SyntheticGraphConfig c =
        new SyntheticGraphConfig(5_000, 50_000, 5, 0.1, true, 500, 0, 8, 1, 0.3, 8, 256);
    SyntheticGraph g = SyntheticGraphGenerator.generate(c);
    EventStream events = g.events();
    assertTrue(events.bipartite());
    assertFalse(EventStream.sharesNodes(events.sources(), events.destinations(), 5_000));
    assertTrue(Arrays.stream(events.sources()).allMatch(v -> v < 4_500));
    assertTrue(Arrays.stream(events.destinations()).allMatch(v -> v >= 4_500));
    assertEquals(0.1, crossShare(g), 0.01);
  }

  @Test
  void everyNodeAppearsWhenThereAreAtLeastAsManyEventsAsNodes() {
    // Under Zipf activity most of these 20,000 nodes would never be drawn in 30,000 events.
    EventStream unipartite =
        SyntheticGraphGenerator.generate(config(20_000, 30_000, 20, 0.1, 1, 12)).events();
    assertEquals(20_000, appearingNodes(unipartite));
    SyntheticGraphConfig c =
        new SyntheticGraphConfig(9_227, 157_474, 9, 0.1, true, 1_000, 0, 12, 1, 0.3, 8, 256);
    assertEquals(9_227, appearingNodes(SyntheticGraphGenerator.generate(c).events()));
  }

  @Test
  void sessionsClusterEachNodesEventsInTime() {
    // A session's events are ~64 events apart (64 open sessions): with sessions of mean length 8,
    // 7 in 8 gaps between a node's consecutive events are short. Without sessions a node's ~20
    // events spread over all 200,000: about 2.5% of gaps are under 256.
    double bursty =
        shortGapShare(SyntheticGraphGenerator.generate(sessions(0.3, 8, 64)).events(), 256);
    double flat =
        shortGapShare(SyntheticGraphGenerator.generate(sessions(0.3, 1, 64)).events(), 256);
    assertTrue(bursty >= 0.8, "short gaps with sessions " + bursty);
    assertTrue(flat <= 0.05, "short gaps without sessions " + flat);
  }

  @Test
  void repeatShareSendsEventsBackToRecentPartners() {
    double repeated =
        recentPartnerShare(SyntheticGraphGenerator.generate(sessions(0.5, 8, 64)).events());
    double none = recentPartnerShare(SyntheticGraphGenerator.generate(sessions(0, 8, 64)).events());
    assertTrue(repeated >= 0.48, "events to a recent partner " + repeated);
    assertTrue(none <= 0.02, "events to a recent partner without repeats " + none);
  }

  @Test
  void invalidConfigNamesTheField() {
    InputException e =
        assertThrows(
            InputException.class,
            () -> new SyntheticGraphConfig(100, 10, 1, 0.1, false, 5, 0, 0, 1, 0.3, 8, 256));
    assertEquals("synthetic graph: items applies only to bipartite graphs, got 5", e.getMessage());
    e = assertThrows(InputException.class, () -> SyntheticGraphConfig.of(1, 10, 0));
    assertEquals("synthetic graph: nodes must be at least 2, got 1", e.getMessage());
  }

  @Test
  void presetsHaveThePublishedSizes() {
    SyntheticGraphConfig talk = SyntheticGraphPreset.byName("wiki-talk").config(1);
    assertEquals(1_140_149, talk.nodes());
    assertEquals(7_833_140, talk.events());
    SyntheticGraphConfig wiki = SyntheticGraphPreset.byName("wikipedia-size").config(1);
    assertEquals(9_227, wiki.nodes());
    assertEquals(1_000, wiki.items());
    assertEquals(157_474, wiki.events());
    assertEquals(172, wiki.edgeFeatureDim());
    InputException e =
        assertThrows(InputException.class, () -> SyntheticGraphPreset.byName("reddit"));
    assertEquals(
        "unknown preset 'reddit', expected one of wiki-talk, wikipedia-size", e.getMessage());
  }

  static int appearingNodes(EventStream events) {
    boolean[] seen = new boolean[events.nodeCount()];
    for (int i = 0; i < events.eventCount(); i++) {
      seen[events.sources()[i]] = true;
      seen[events.destinations()[i]] = true;
    }
    int count = 0;
    for (boolean b : seen) {
      count += b ? 1 : 0;
    }
    return count;
  }

  /** Share of endpoint occurrences held by the 1% of nodes with the highest degree. */
  static double topPercentShare(EventStream events) {
    long[] degree = new long[events.nodeCount()];
    for (int i = 0; i < events.eventCount(); i++) {
      degree[events.sources()[i]]++;
      degree[events.destinations()[i]]++;
    }
    Arrays.sort(degree);
    long top = 0;
    for (int k = 1; k <= events.nodeCount() / 100; k++) {
      top += degree[degree.length - k];
    }
    return top / (2.0 * events.eventCount());
  }

  static double crossShare(SyntheticGraph g) {
    int[] community = g.communities();
    EventStream events = g.events();
    long cross = 0;
    for (int i = 0; i < events.eventCount(); i++) {
      cross += community[events.sources()[i]] != community[events.destinations()[i]] ? 1 : 0;
    }
    return cross / (double) events.eventCount();
  }

  /** Share of a source's consecutive events (by index) fewer than {@code limit} events apart. */
  static double shortGapShare(EventStream events, int limit) {
    int[] last = new int[events.nodeCount()];
    Arrays.fill(last, -1);
    long gaps = 0;
    long shortGaps = 0;
    for (int i = 0; i < events.eventCount(); i++) {
      int u = events.sources()[i];
      if (last[u] >= 0) {
        gaps++;
        shortGaps += i - last[u] < limit ? 1 : 0;
      }
      last[u] = i;
    }
    return shortGaps / (double) gaps;
  }

  /** Share of events whose destination was among the source's last 4 partners, either way. */
  static double recentPartnerShare(EventStream events) {
    int n = events.nodeCount();
    int[][] recent = new int[n][4];
    int[] writes = new int[n];
    long hits = 0;
    for (int i = 0; i < events.eventCount(); i++) {
      int u = events.sources()[i];
      int v = events.destinations()[i];
      for (int k = 0; k < Math.min(4, writes[u]); k++) {
        if (recent[u][k] == v) {
          hits++;
          break;
        }
      }
      recent[u][writes[u]++ % 4] = v;
      recent[v][writes[v]++ % 4] = u;
    }
    return hits / (double) events.eventCount();
  }
}
