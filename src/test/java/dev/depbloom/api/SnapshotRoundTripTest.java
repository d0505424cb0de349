package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted service loses nothing: a snapshot restored (at load, or into a running predictor)
 * continues exactly as the uninterrupted stream, to the last bit of every score and of the state;
 * and observing a batch writes the state scoring it first writes, to float rounding.
 */
@Tag(Kernels.TRAINS)
class SnapshotRoundTripTest {
  @TempDir static Path dir;
  private static Path run;
  private static EventStream stream;
  private static List<Interaction> tail; // the test events, some with new node ids
  private static List<LinkQuery> queries;

  @BeforeAll
  static void train() {
    ServedRuns.Trained trained = ServedRuns.trainTgn(dir);
    run = trained.run();
    stream = trained.stream();
    tail = new ArrayList<>();
    for (Interaction e : ServedRuns.interactions(stream, 510, 600)) {
      boolean fresh = tail.size() % 17 == 5; // a new user now and then
      tail.add(fresh ? new Interaction(9_000 + tail.size(), e.destination(), e.time(), null) : e);
    }
    double after = tail.get(tail.size() - 1).time() + 1;
    queries = new ArrayList<>();
    for (Interaction e : tail) {
      queries.add(new LinkQuery(e.source(), e.destination(), after));
    }
    queries.add(new LinkQuery(4_567, 1000, after)); // never seen
  }

  /** Observes {@code events} in calls of 7 (two batches for a call over 20 are not needed). */
  private static void observe(TemporalLinkPredictor p, List<Interaction> events) {
    for (int i = 0; i < events.size(); i += 7) {
      p.observe(events.subList(i, Math.min(events.size(), i + 7)));
    }
  }

  @Test
  void aRestoredSnapshotContinuesBitForBitAsTheUninterruptedStream() throws IOException {
    Path snapshot = dir.resolve("mid.snapshot");
    float[] uninterrupted;
    Path end = dir.resolve("end-a.snapshot");
    try (TemporalLinkPredictor a = TemporalLinkPredictor.load(run)) {
      observe(a, tail.subList(0, 40));
      assertEquals(a.version(), a.snapshot(snapshot));
      observe(a, tail.subList(40, tail.size()));
      uninterrupted = a.score(queries).scores();
      a.snapshot(end);
      assertTrue(a.newNodeCount() > 0);
    }
    Path endB = dir.resolve("end-b.snapshot");
    try (TemporalLinkPredictor b =
        TemporalLinkPredictor.load(run, PredictorOptions.defaults().withSnapshot(snapshot))) {
      observe(b, tail.subList(40, tail.size()));
      assertArrayEquals(uninterrupted, b.score(queries).scores());
      b.snapshot(endB);
    }
    assertArrayEquals(Files.readAllBytes(end), Files.readAllBytes(endB));
    Path endC = dir.resolve("end-c.snapshot");
    try (TemporalLinkPredictor c = TemporalLinkPredictor.load(run)) {
      observe(c, tail.subList(0, 13)); // state the restore replaces
      c.restore(snapshot);
      observe(c, tail.subList(40, tail.size()));
      assertArrayEquals(uninterrupted, c.score(queries).scores());
      c.snapshot(endC);
    }
    assertArrayEquals(Files.readAllBytes(end), Files.readAllBytes(endC));
  }

  /**
   * The test protocol's two writes, TGL's replay (observe) and the scoring pass's
   * (scoreThenObserve), agree to float rounding: their memory updates multiply matrices of
   * different row counts, which OpenBLAS may round differently in the last bit.
   */
  @Test
  void observingABatchWritesWhatScoringItFirstWrites() {
    try (TemporalLinkPredictor a = TemporalLinkPredictor.load(run);
        TemporalLinkPredictor b = TemporalLinkPredictor.load(run)) {
      observe(a, tail);
      for (int i = 0; i < tail.size(); i += 7) {
        b.scoreThenObserve(tail.subList(i, Math.min(tail.size(), i + 7)), null);
      }
      assertEquals(a.version(), b.version());
      assertArrayEquals(a.score(queries).scores(), b.score(queries).scores(), 1e-6f);
    }
  }

  @Test
  void aRunWithoutEdgeFeaturesSnapshotsAndRestoresToo() throws IOException {
    Path data = ServedRuns.writeStream(dir.resolve("featureless.csv"), 0);
    Path bare = ServedRuns.train(data, "tgn", dir.resolve("featureless-run"));
    EventStream events = ServedRuns.load(data);
    List<Interaction> rest = ServedRuns.interactions(events, 510, 600);
    List<LinkQuery> probe = new ArrayList<>();
    for (Interaction e : rest) {
      probe.add(new LinkQuery(e.source(), e.destination(), events.times()[599] + 1));
    }
    Path snapshot = dir.resolve("featureless.snapshot");
    float[] uninterrupted;
    try (TemporalLinkPredictor a = TemporalLinkPredictor.load(bare)) {
      assertEquals(0, a.edgeFeatureDim());
      a.observe(rest.subList(0, 30));
      a.snapshot(snapshot);
      a.observe(rest.subList(30, 90));
      uninterrupted = a.score(probe).scores();
    }
    try (TemporalLinkPredictor b =
        TemporalLinkPredictor.load(bare, PredictorOptions.defaults().withSnapshot(snapshot))) {
      b.observe(rest.subList(30, 90));
      assertArrayEquals(uninterrupted, b.score(probe).scores());
    }
  }

  @Test
  void aSnapshotOfAnotherRunOrADamagedOneIsRefusedNamingTheFile() throws IOException {
    Path snapshot = dir.resolve("other.snapshot");
    Path other = ServedRuns.train(dir.resolve("events.csv"), "jodie", dir.resolve("jodie-run"));
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(other)) {
      p.snapshot(snapshot);
    }
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      InputException e = assertThrows(InputException.class, () -> p.restore(snapshot));
      assertTrue(
          e.getMessage().startsWith(snapshot + ": a snapshot of another run"), e.getMessage());
      byte[] bytes = Files.readAllBytes(snapshot);
      bytes[bytes.length / 2] ^= 1;
      Path damaged = Files.write(dir.resolve("damaged.snapshot"), bytes);
      InputException d = assertThrows(InputException.class, () -> p.restore(damaged));
      assertEquals(damaged + ": damaged snapshot (checksum mismatch)", d.getMessage());
      assertEquals(0, p.version()); // nothing changed
    }
  }
}
