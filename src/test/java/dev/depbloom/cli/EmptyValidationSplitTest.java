package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream too short for a validation split (3 events: 2 / 0 / 1) has no validation AP to choose
 * the tested epoch by: the last epoch is tested, and the run says so at its start (before, epoch 1
 * was kept as the best, since NaN is never greater, and the least-trained parameters were tested).
 */
class EmptyValidationSplitTest {
  @TempDir Path dir;

  @Test
  void withoutValidationEventsTheLastEpochIsTestedAndTheRunSaysSo() throws IOException {
    Path data = dir.resolve("three.txt");
    Files.writeString(data, "1 2 10\n2 3 11\n3 4 12\n");
    Path runDir = dir.resolve("run");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status =
        cl.execute(
            "train",
            "--data",
            data.toString(),
            "--model",
            "jodie",
            "--epochs",
            "2",
            "--eval-negatives",
            "2",
            "--threads",
            "1,1",
            "--sampler-threads",
            "1",
            "--json",
            "--out",
            runDir.toString());
    assertEquals(0, status, err.toString());
    List<String> lines = out.toString().lines().toList();
    JsonNode summary = new ObjectMapper().readTree(lines.get(lines.size() - 1));
    assertEquals("NaN", summary.get("valAp").asText());
    assertEquals(2, summary.get("bestEpoch").asInt(), summary.toString());
    assertEquals(
        2,
        new ObjectMapper()
            .readTree(runDir.resolve("state.json").toFile())
            .get("bestEpoch")
            .asInt());
    assertTrue(err.toString().contains("the validation split is empty"), err.toString());
  }
}
