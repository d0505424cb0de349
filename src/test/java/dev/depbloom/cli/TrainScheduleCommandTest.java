package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code train --schedule disttgl --devices G --trace FILE} through the command line. */
@Tag(Kernels.TRAINS)
class TrainScheduleCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private Path data;

  @BeforeEach
  void writeData() throws IOException {
    EventStream s = TinyStreams.random(80, 2500, 0, 5);
    data = TinyStreams.writeCsv(s, dir.resolve("events.csv"));
  }

  private static String run(List<String> args) {
    return CliRuns.run(args).out();
  }

  @Test
  void eightLogicalDevicesOnTwoWorkersWriteATraceWithEightDeviceTracks() throws IOException {
    Path out = dir.resolve("run");
    Path trace = dir.resolve("trace.json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--edge-feature-dim",
                "4",
                "--epochs",
                "1",
                "--batch-size",
                "50",
                "--eval-negatives",
                "2",
                "--set",
                "memory.dim_out=8",
                "--set",
                "gnn.dim_out=8",
                "--set",
                "memory.dim_time=4",
                "--set",
                "gnn.dim_time=4",
                "--schedule",
                "disttgl",
                "--devices",
                "8",
                "--workers",
                "2",
                "--trace",
                trace.toString(),
                "--quiet",
                "--json",
                "--out",
                out.toString()));
    run(args);

    JsonNode events = JSON.readTree(trace.toFile()).get("traceEvents");
    Set<String> tracks = new TreeSet<>();
    Set<Integer> rounds = new TreeSet<>();
    Set<String> stages = new TreeSet<>();
    for (JsonNode e : events) {
      if (e.get("ph").asText().equals("M")) {
        tracks.add(e.get("args").get("name").asText());
      } else {
        assertEquals("X", e.get("ph").asText());
        assertTrue(e.get("dur").asDouble() >= 0);
        rounds.add(e.get("args").get("round").asInt());
        stages.add(e.get("name").asText());
      }
    }
    Set<String> expected = new TreeSet<>();
    expected.add("coordinator");
    for (int d = 0; d < 8; d++) {
      expected.add("device " + d);
    }
    assertEquals(expected, tracks);
    // 1,750 training events in batches of 50: 35 batches, 8 per round
    assertEquals(5, rounds.size());
    assertTrue(
        stages.containsAll(
            List.of(
                "sample",
                "fetch",
                "memoryUpdate",
                "train",
                "memoryWrite",
                "sync",
                "allReduce",
                "optimizerStep",
                "commit")),
        stages.toString());

    JsonNode epoch = JSON.readTree(Files.readAllLines(out.resolve("metrics.jsonl")).get(0));
    assertEquals(8, epoch.get("devices").size());
    assertTrue(epoch.get("devices").get(7).get("train").asDouble() > 0);
    assertTrue(epoch.get("parameterChecksum").asText().matches("[0-9a-f]{8}"));
    String config = Files.readString(out.resolve("config.yml"));
    assertTrue(config.contains("name: disttgl") && config.contains("devices: 8"), config);
  }
}
