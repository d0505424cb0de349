package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream too short for a validation split (3 events: 2 / 0 / 1) has no validation AP to choose
 * the tested epoch by: the last epoch is tested, and the run says so at its start (before, epoch 1
 * was kept as the best, since NaN is never greater, and the least-trained parameters were tested).
 */
@Tag(Kernels.TRAINS)
class EmptyValidationSplitTest {
  @TempDir Path dir;

  @Test
  void withoutValidationEventsTheLastEpochIsTestedAndTheRunSaysSo() throws IOException {
    Path data = dir.resolve("three.txt");
    Files.writeString(data, "1 2 10\n2 3 11\n3 4 12\n");
    Path runDir = dir.resolve("run");
    CliRuns.Outcome run =
        CliRuns.run(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--model",
                "jodie",
                "--epochs",
                "2",
                "--eval-negatives",
                "2",
                "--json",
                "--out",
                runDir.toString()));
    assertEquals("NaN", run.summary().get("valAp").asText());
    assertEquals(2, run.summary().get("bestEpoch").asInt(), run.summary().toString());
    assertEquals(
        2,
        new ObjectMapper()
            .readTree(runDir.resolve("state.json").toFile())
            .get("bestEpoch")
            .asInt());
    assertTrue(run.err().contains("the validation split is empty"), run.err());
  }
}
