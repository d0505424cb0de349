package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.NodeIdMap;
import dev.depbloom.step.BatchScores;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.SavedRun;
import dev.depbloom.train.Trainer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One mechanism for testing and serving: a predictor loaded from a run and fed the run's test
 * events, batch by batch, with the test's negatives as candidates, scores them exactly as the run's
 * continued test protocol did; one loaded with an empty history that first observes the training
 * and validation events scores them as TGL's protocol (reset, replay) did. (To 1e-6, as the issue
 * asks; on this project's machines they are equal to the last bit.)
 */
@Tag(Kernels.TRAINS)
class PredictorMatchesTestProtocolTest {
  @TempDir Path dir;

  /** A test batch of the protocol and its scores under both protocols. */
  private record Scored(Batch batch, BatchScores continued, BatchScores tgl) {}

  private List<Scored> protocolScores(Path run) {
    RunDirectory folder = RunDirectory.open(run);
    List<Scored> out = new ArrayList<>();
    try (Trainer trainer = new Trainer(SavedRun.open(folder, null).run())) {
      trainer.onTestBatch((batch, continued, tgl) -> out.add(new Scored(batch, continued, tgl)));
      trainer.test(folder, folder.peekState().bestEpoch());
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"tgn", "jodie", "apan", "tgat", "dysat"})
  void observingTheTestEventsScoresThemAsTheContinuedProtocolDid(String model) {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    Path run = ServedRuns.train(data, model, dir.resolve("run"));
    List<Scored> protocol = protocolScores(run);
    EventStream stream = ServedRuns.load(data);
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run)) {
      assertEquals(0, p.version());
      compare(p, stream, protocol, true);
      assertEquals(protocol.size(), p.version());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan"})
  void replayingTheHistoryThenObservingScoresAsTglsProtocolDid(String model) {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    Path run = ServedRuns.train(data, model, dir.resolve("run"));
    List<Scored> protocol = protocolScores(run);
    EventStream stream = ServedRuns.load(data);
    int history = protocol.get(0).batch().start();
    PredictorOptions empty = PredictorOptions.defaults().withEmptyHistory(true);
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run, empty)) {
      p.observe(ServedRuns.interactions(stream, 0, history)); // batches of 20 from event 0
      compare(p, stream, protocol, false);
    }
  }

  /** Feeds each protocol batch to {@code p} and compares its scores with the protocol's. */
  private static void compare(
      TemporalLinkPredictor p, EventStream stream, List<Scored> protocol, boolean continued) {
    NodeIdMap ids = stream.nodeIds();
    int compared = 0;
    for (Scored s : protocol) {
      Batch b = s.batch();
      int n = b.size();
      int k = b.negativesPerEvent();
      long[][] candidates = new long[n][k];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
          candidates[i][j] = ids.originalId(b.roots()[(2 + j) * n + i]);
        }
      }
      EventScores got =
          p.scoreThenObserve(ServedRuns.interactions(stream, b.start(), b.start() + n), candidates);
      BatchScores want = continued ? s.continued() : s.tgl();
      for (int i = 0; i < n; i++) {
        assertEquals(want.positive()[i], got.scores()[i], 1e-6, "event " + b.event(i));
        for (int j = 0; j < k; j++) {
          assertEquals(
              want.negative()[j * n + i],
              got.candidates()[i][j],
              1e-6,
              "event " + b.event(i) + ", negative " + j);
          compared++;
        }
      }
    }
    assertTrue(compared >= 90 * 5, compared + " scores compared");
  }
}
