package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.cli.CliRuns.Outcome;
import dev.depbloom.data.DataFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose scores rank nothing stops as a diverged one does (exit status 3, one line naming the
 * epoch, the pass's batches and events, and the last good checkpoint) instead of reporting AP 0.5
 * as if it had trained. The scores are made degenerate by a learning rate of 1e4: Adam's first
 * steps move every parameter by about 1e4, so every logit is far beyond the range where a float
 * sigmoid is below 1 and above 0, while the training loss (BCE on logits) stays finite.
 */
@Tag(Kernels.TRAINS)
class DegenerateScoresTest {
  private static final String EQUAL = "is (0\\.0|1\\.0): the model scores every pair alike";
  private static final String SATURATED =
      "is exactly 0 or 1 \\(\\d+ ones, \\d+ zeros\\): the sigmoid saturated";

  /** The likely causes every such stop names, with the flag to change (the runs' rate is 1e4). */
  private static final String CAUSES =
      " \\(likely a learning rate too high for this data: train.lr is 10000, try --lr 1000; or"
          + " node or edge features on a huge scale: scale them to about unit size\\)";

  @TempDir Path dir;

  private static Outcome train(Path data, String model, int epochs, int batch, Path out) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--model",
                model,
                "--epochs",
                String.valueOf(epochs),
                "--batch-size",
                String.valueOf(batch),
                "--lr",
                "1e4",
                "--eval-negatives",
                "2",
                "--threads",
                "1,1",
                "--sampler-threads",
                "1",
                "--quiet",
                "--out",
                out.toString()));
    return CliRuns.execute(args);
  }

  private static String only(Outcome o) {
    assertEquals(Main.EXIT_DIVERGED, o.status(), String.join("\n", o.errLines()));
    assertEquals(1, o.errLines().size(), "one line, no stack trace: " + o.errLines());
    return o.errLines().get(0);
  }

  /** 210 training events in batches of 20: validation is batches 0-2 of events 210-255. */
  @Test
  void aValidationThatRanksNothingStopsTheRunNamingEpochAndBatches() {
    Path data = DataFiles.fixture("cuts/CollegeMsg-head300.txt");
    for (String model : List.of("jodie", "tgn", "apan", "tgat")) {
      Path out = dir.resolve(model);
      String line = only(train(data, model, 2, 20, out));
      assertTrue(
          line.matches(
              "depbloom: error: epoch 1, validation batches 0-2 \\(events 210-255\\): every one of"
                  + " its 90 scores \\(45 events and their negatives\\) ("
                  + EQUAL
                  + "|"
                  + SATURATED
                  + "), so AP and AUC would only count ties"
                  + CAUSES
                  + "; no epoch completed, so there is no"
                  + " checkpoint to go back to"),
          model + ": " + line);
      assertFalse(Files.exists(out.resolve("test.json")), model);
    }
  }

  /**
   * With 5 validation events (too few to judge, {@code ext_roll} says so) epoch 1 completes and is
   * tested: the test's 55 events (each against its AP negative and 2 ranking negatives: 220
   * scores), scored by the same parameters, rank nothing, and the run stops naming the protocol,
   * the batch and the tested checkpoint, which it keeps.
   */
  @Test
  void aTestPassThatRanksNothingStopsTheRunNamingProtocolBatchAndCheckpoint() {
    Path data = CliRuns.collegeMsgWithSplit(dir.resolve("data"), 240, 5);
    Path out = dir.resolve("run");
    String line = only(train(data, "jodie", 1, 300, out));
    assertTrue(
        line.matches(
            "depbloom: error: test \\(continued protocol, batch 0 \\(events 245-300\\)\\): every"
                + " one of its 220 scores \\(55 events and their negatives\\) ("
                + EQUAL
                + "|"
                + SATURATED
                + "), so AP and AUC would only count ties"
                + CAUSES
                + "; the tested checkpoint is"
                + " checkpoints/epoch-1\\.pt"),
        line);
    assertTrue(Files.isRegularFile(out.resolve("checkpoints/epoch-1.pt")));
    assertFalse(Files.exists(out.resolve("test.json")));
  }
}
