package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead journal: a predictor dropped without a snapshot (as a crash drops it) and loaded
 * again with its journal answers exactly as one that never stopped, at the same version; a record
 * cut short by a crash is dropped; a snapshot empties the journal; versions continue, never repeat.
 */
@Tag(Kernels.TRAINS)
class EventJournalTest {
  @TempDir static Path dir;
  private static Path run;
  private static EventStream stream;

  @BeforeAll
  static void train() {
    ServedRuns.Trained trained = ServedRuns.trainTgn(dir);
    run = trained.run();
    stream = trained.stream();
  }

  /** The test events in calls of 7 (a batch each), the odd calls scored first. */
  private static long feed(TemporalLinkPredictor p, int from, int to) {
    long version = p.version();
    for (int e = from; e < to; e += 7) {
      List<Interaction> call = ServedRuns.interactions(stream, e, Math.min(to, e + 7));
      version = (e / 7) % 2 == 1 ? p.scoreThenObserve(call, null).version() : p.observe(call);
    }
    return version;
  }

  private static List<LinkQuery> probe(TemporalLinkPredictor p) {
    List<LinkQuery> q = new ArrayList<>();
    for (int e = 510; e < 600; e += 9) {
      Interaction i = ServedRuns.interaction(stream, e);
      q.add(new LinkQuery(i.source(), i.destination(), TemporalLinkPredictor.NEWEST));
    }
    return q;
  }

  private static PredictorOptions journaled(Path journal) {
    return PredictorOptions.defaults().withJournal(journal);
  }

  @Test
  void aPredictorDroppedWithoutASnapshotComesBackFromItsJournalBitForBit() throws Exception {
    Path journal = dir.resolve("a.journal");
    float[] expected;
    long version;
    try (TemporalLinkPredictor uninterrupted = TemporalLinkPredictor.load(run)) {
      version = feed(uninterrupted, 510, 580);
      expected = uninterrupted.score(probe(uninterrupted)).scores();
    }
    try (TemporalLinkPredictor crashed = TemporalLinkPredictor.load(run, journaled(journal))) {
      assertEquals(version, feed(crashed, 510, 580));
    } // closed without a snapshot: all it leaves is the journal
    long bytes = Files.size(journal);
    Files.write(journal, new byte[] {0, 0, 1, 0, 42}, StandardOpenOption.APPEND); // a torn record
    try (TemporalLinkPredictor back = TemporalLinkPredictor.load(run, journaled(journal))) {
      assertEquals(version, back.version());
      ScoredLinks s = back.score(probe(back));
      assertArrayEquals(expected, s.scores());
      assertEquals(bytes, Files.size(journal), "the torn record is cut off");
      Interaction next = ServedRuns.interaction(stream, 580);
      assertEquals(version + 1, back.observe(List.of(next)), "versions continue");
    }
    try (TemporalLinkPredictor again = TemporalLinkPredictor.load(run, journaled(journal))) {
      assertEquals(version + 1, again.version()); // the batch after the torn record is there too
    }
  }

  @Test
  void aSnapshotEmptiesTheJournalAndTheRestartContinuesFromBoth() throws Exception {
    Path journal = dir.resolve("b.journal");
    Path snapshot = dir.resolve("b.snapshot");
    float[] expected;
    try (TemporalLinkPredictor uninterrupted = TemporalLinkPredictor.load(run)) {
      feed(uninterrupted, 510, 590);
      expected = uninterrupted.score(probe(uninterrupted)).scores();
    }
    long header;
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run, journaled(journal))) {
      header = Files.size(journal);
      feed(p, 510, 552);
      p.snapshot(snapshot);
      assertEquals(header, Files.size(journal), "the snapshot holds what the journal had");
      feed(p, 552, 590);
      assertTrue(Files.size(journal) > header);
      assertThrows(IllegalStateException.class, () -> p.restore(snapshot));
    }
    try (TemporalLinkPredictor back =
        TemporalLinkPredictor.load(run, journaled(journal).withSnapshot(snapshot))) {
      assertArrayEquals(expected, back.score(probe(back)).scores());
    }
  }

  @Test
  void aJournalOfAnotherRunOrAnotherSnapshotIsRefusedNamingTheFile() throws Exception {
    Path foreign = dir.resolve("c.journal");
    Files.writeString(foreign, "depbloom-journal 1 another-run\n");
    InputException e =
        assertThrows(
            InputException.class, () -> TemporalLinkPredictor.load(run, journaled(foreign)));
    assertTrue(e.getMessage().startsWith(foreign + ": not this run's journal"), e.getMessage());
    Path journal = dir.resolve("d.journal");
    Path snapshot = dir.resolve("d.snapshot");
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      p.snapshot(snapshot); // version 0
    }
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run, journaled(journal))) {
      feed(p, 510, 530); // journaled from version 0 without a snapshot
    }
    Path later = dir.resolve("d2.snapshot");
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      feed(p, 510, 545);
      p.snapshot(later); // version 5: the journal does not continue it
    }
    try (TemporalLinkPredictor p =
        TemporalLinkPredictor.load(run, journaled(journal).withSnapshot(snapshot))) {
      assertEquals(3, p.version()); // 0 + the journal's three batches
    }
    Path ahead = dir.resolve("f.journal");
    try (TemporalLinkPredictor p =
        TemporalLinkPredictor.load(run, journaled(ahead).withSnapshot(later))) {
      feed(p, 545, 560); // journaled from version 5
    }
    InputException gap =
        assertThrows(
            InputException.class,
            () -> TemporalLinkPredictor.load(run, journaled(ahead).withSnapshot(snapshot)));
    assertTrue(
        gap.getMessage()
            .startsWith(ahead + ": the journal continues version 5 but the state is at version 0"),
        gap.getMessage());
  }
}
