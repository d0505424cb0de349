package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.cli.CliRuns.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A diverging run stops with one error line naming the epoch and the round or batch, exit status 3,
 * and the checkpoint of the last completed epoch kept. Divergence is forced with a learning rate of
 * 1e10 on 300 events in batches of 300: epoch 1 is one optimizer step from the initial parameters
 * and completes; epoch 2 starts from parameters about 1e10 in size. Epoch 1's scores already rank
 * nothing (all exactly 0 or 1), which stops a run ({@link DegenerateScoresTest}) unless, as here,
 * the validation split is too small to judge: the data's {@code ext_roll} makes it 5 events (240
 * training, 55 test).
 */
@Tag(Kernels.TRAINS)
class TrainDivergenceTest {
  @TempDir Path dir;

  private Outcome train(String model, Path out) {
    return CliRuns.execute(
        "train",
        "--data",
        CliRuns.collegeMsgWithSplit(dir.resolve("data"), 240, 5).toString(),
        "--model",
        model,
        "--epochs",
        "3",
        "--batch-size",
        "300",
        "--lr",
        "1e10",
        "--eval-negatives",
        "2",
        "--threads",
        "1,1",
        "--sampler-threads",
        "1",
        "--quiet",
        "--out",
        out.toString());
  }

  @Test
  void aNanTrainingLossStopsTheRunNamingEpochAndRoundAndKeepsTheLastCheckpoint() {
    Path out = dir.resolve("jodie");
    Outcome o = train("jodie", out);
    assertEquals(Main.EXIT_DIVERGED, o.status(), String.join("\n", o.errLines()));
    assertEquals(1, o.errLines().size(), "one line, no stack trace: " + o.errLines());
    String line = o.errLines().get(0);
    assertTrue(
        line.matches(
            "depbloom: error: epoch 2, round 0 \\(events 0-240\\): training loss is"
                + " (NaN|Infinity|-Infinity); the last good checkpoint is"
                + " checkpoints/epoch-1\\.pt"),
        line);
    assertTrue(Files.isRegularFile(out.resolve("checkpoints/epoch-1.pt")));
    assertFalse(Files.exists(out.resolve("test.json")));
  }

  @Test
  void aNanValidationScoreStopsTheRunNamingEpochAndValidationBatch() {
    Path out = dir.resolve("tgn");
    Outcome o = train("tgn", out);
    assertEquals(Main.EXIT_DIVERGED, o.status(), String.join("\n", o.errLines()));
    assertEquals(1, o.errLines().size(), "one line, no stack trace: " + o.errLines());
    String line = o.errLines().get(0);
    assertTrue(
        line.matches(
            "depbloom: error: epoch 2, validation batch 0 \\(events 240-245\\): (positive|negative)"
                + " score \\d+ is (NaN|Infinity|-Infinity).*; the last good checkpoint is"
                + " checkpoints/epoch-1\\.pt"),
        line);
    assertTrue(Files.isRegularFile(out.resolve("checkpoints/epoch-1.pt")));
  }
}
