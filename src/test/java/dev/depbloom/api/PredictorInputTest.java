package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.data.EventStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the predictor refuses, and that a refused call changes nothing; what unknown node ids and
 * new nodes do; the ranking.
 */
@Tag(Kernels.TRAINS)
class PredictorInputTest {
  @TempDir static Path dir;
  private static Path run;
  private static List<Interaction> tail; // the test events
  private static double after; // a time after every event

  @BeforeAll
  static void train() {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    run = ServedRuns.train(data, "tgn", dir.resolve("run"));
    EventStream stream = ServedRuns.load(data);
    tail = ServedRuns.interactions(stream, 510, 600);
    after = stream.times()[599] + 1;
  }

  private static List<LinkQuery> probe() {
    List<LinkQuery> q = new ArrayList<>();
    for (Interaction e : tail) {
      q.add(new LinkQuery(e.source(), e.destination(), after));
    }
    return q;
  }

  /** A refused call leaves version, nodes and every score as they were. */
  private static void assertRefusedAndUnchanged(
      TemporalLinkPredictor p, List<Interaction> events, int index, String field, String problem) {
    long version = p.version();
    int nodes = p.nodeCount();
    float[] before = p.score(probe()).scores();
    RejectedInputException e = assertThrows(RejectedInputException.class, () -> p.observe(events));
    assertEquals(index, e.index());
    assertEquals(field, e.field());
    assertTrue(e.problem().contains(problem), e.getMessage());
    assertEquals(version, p.version());
    assertEquals(nodes, p.nodeCount());
    assertArrayEquals(before, p.score(probe()).scores());
  }

  @Test
  void anEventBeforeTheNewestObservedIsRefusedAndNothingOfTheCallIsApplied() {
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      List<Interaction> events = new ArrayList<>(tail.subList(0, 45)); // three batches' worth
      Interaction late = tail.get(0);
      events.add(new Interaction(late.source(), late.destination(), late.time() - 1, null));
      assertRefusedAndUnchanged(p, events, 45, "time", "is before the newest observed event");
      p.observe(tail.subList(0, 10));
      Interaction old = tail.get(0);
      assertRefusedAndUnchanged(
          p,
          List.of(new Interaction(old.source(), old.destination(), old.time() - 0.5, null)),
          0,
          "time",
          "events must arrive in time order");
      // the same time as the newest is fine
      Interaction newest = tail.get(9);
      p.observe(List.of(new Interaction(newest.source(), newest.destination(), newest.time())));
    }
  }

  @Test
  void newNodeIdsGetFreshNodesUpToTheLimitAndNoFurther() {
    try (TemporalLinkPredictor p =
        TemporalLinkPredictor.load(run, PredictorOptions.defaults().withMaxNewNodes(2))) {
      int nodes = p.nodeCount();
      Interaction e = tail.get(0);
      List<Interaction> three =
          List.of(
              new Interaction(1_501, e.destination(), e.time()),
              new Interaction(1_502, e.destination(), e.time()),
              new Interaction(e.source(), 1_503, e.time()));
      assertRefusedAndUnchanged(p, three, 2, "dst", "beyond the limit of 2 new nodes");
      p.observe(three.subList(0, 2));
      assertEquals(nodes + 2, p.nodeCount());
      assertEquals(2, p.newNodeCount());
      p.observe(List.of(new Interaction(1_501, e.destination(), e.time()))); // known now
      assertEquals(nodes + 2, p.nodeCount());
    }
  }

  @Test
  void anUnknownIdScoresAsAFreshNodeWithoutBeingAdded() {
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      long item = tail.get(0).destination();
      float a = p.score(7_001, item, after);
      float b = p.score(7_002, item, after);
      assertEquals(a, b); // both read the blank row
      assertNotEquals(a, p.score(tail.get(0).source(), item, after));
      int nodes = p.nodeCount();
      p.score(7_003, 7_004, after);
      assertEquals(nodes, p.nodeCount());
      assertEquals(a, p.score(7_001, item, after));
    }
  }

  @Test
  void badFeaturesAndQueriesBeforeTheNewestEventAreRefused() {
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      Interaction e = tail.get(0);
      assertRefusedAndUnchanged(
          p,
          List.of(new Interaction(e.source(), e.destination(), e.time(), new float[2])),
          0,
          "features",
          "expected 3 numbers");
      assertRefusedAndUnchanged(
          p,
          List.of(
              e,
              new Interaction(
                  e.source(), e.destination(), e.time(), new float[] {0, Float.NaN, 0})),
          1,
          "features",
          "value 1 is NaN");
      assertRefusedAndUnchanged(
          p,
          List.of(new Interaction(e.source(), e.destination(), Double.NaN)),
          0,
          "time",
          "expected a finite number");
      RejectedInputException q =
          assertThrows(
              RejectedInputException.class,
              () ->
                  p.score(
                      List.of(
                          new LinkQuery(e.source(), e.destination(), after),
                          new LinkQuery(e.source(), e.destination(), e.time() - 100))));
      assertEquals(1, q.index());
      assertEquals("time", q.field());
    }
  }

  @Test
  void rankOrdersCandidatesByTheirScoresAsScoreComputesThem() {
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      long user = tail.get(3).source();
      long[] items = new long[20];
      for (int i = 0; i < items.length; i++) {
        items[i] = 1000 + i;
      }
      Ranking r = p.rank(user, items, after, 5);
      assertEquals(5, r.top().size());
      for (int i = 1; i < 5; i++) {
        assertTrue(r.top().get(i - 1).score() >= r.top().get(i).score());
      }
      for (RankedNode n : r.top()) {
        assertEquals(p.score(user, n.node(), after), n.score(), 1e-6);
      }
      assertEquals(20, p.rank(user, items, after, 50).top().size());
      assertThrows(RejectedInputException.class, () -> p.rank(user, new long[0], after, 5));
      assertThrows(RejectedInputException.class, () -> p.rank(user, items, after, 0));
    }
  }
}
