package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.Kernels;
import dev.depbloom.data.DataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A schedule's result depends on its logical devices G, never on the workers that run them: with no
 * thread flags, {@code --workers 1} and {@code --workers 2} train, validate and test to the same
 * bits at G = 2 and G = 4, for every model. Every work item runs with one worker's thread budget
 * (intra-op 1 + BLAS 1) whatever W is, so the float rounding of its products is the same; W only
 * says how many items run at once. (Before, one worker got all cores' BLAS threads, and on 300
 * CollegeMsg events TGN's validation AP moved by two points.) W at most G keeps every item whole,
 * so no event shards depend on W either.
 */
@Tag(Kernels.TRAINS)
class WorkerCountInvarianceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  static Stream<Arguments> runs() {
    List<Arguments> rows = new ArrayList<>();
    for (String model : List.of("jodie", "tgn", "apan", "tgat", "dysat")) {
      rows.add(Arguments.of(model, "disttgl", 2));
      rows.add(Arguments.of(model, "disttgl", 4));
    }
    rows.add(Arguments.of("tgn", "depbloom", 2));
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}, {1} on {2} devices")
  @MethodSource("runs")
  void oneWorkerAndTwoWorkersGiveTheSameRunAtDefaultThreadSettings(
      String model, String schedule, int devices) throws IOException {
    Run one = train(model, schedule, devices, 1);
    Run two = train(model, schedule, devices, 2);
    assertEquals(one.summary(), two.summary(), "summaries (losses, AP, AUC, MRR, checksums)");
    assertEquals(one.epochs(), two.epochs(), "metrics.jsonl (losses, AP, checksums)");
    assertFalse(one.err().contains("results depend on the thread settings"), one.err());
    assertFalse(two.err().contains("results depend on the thread settings"), two.err());
  }

  /**
   * A setting that keeps the figures from being the same on any number of workers is said in the
   * run's first line and in run.json; the default is recorded as worker-invariant.
   */
  @Test
  void moreThanOneBlasThreadPerItemIsSaidInTheFirstLineAndRecordedInRunJson() throws IOException {
    Path out = dir.resolve("blas2");
    CliRuns.Outcome f =
        CliRuns.run(
            List.of(
                "train",
                "--data",
                DataFiles.fixture("cuts/CollegeMsg-head300.txt").toString(),
                "--model",
                "jodie",
                "--epochs",
                "1",
                "--eval-negatives",
                "1",
                "--threads",
                "1,2",
                "--json",
                "--out",
                out.toString()));
    String first = f.err().lines().findFirst().orElse("");
    assertTrue(
        first.startsWith("depbloom: note: results depend on the thread settings")
            && first.contains("threads 1,2 run every work item with intra-op 1 + BLAS 2 threads"),
        f.err());
    JsonNode threads = JSON.readTree(out.resolve("run.json").toFile()).get("threads");
    assertFalse(threads.get("workerInvariant").asBoolean(), threads.toString());
    assertTrue(first.endsWith(threads.get("note").asText()), threads.toString());

    train("jodie", "disttgl", 2, 2);
    JsonNode invariant =
        JSON.readTree(dir.resolve("jodie-disttgl2-w2/run.json").toFile()).get("threads");
    assertTrue(invariant.get("workerInvariant").asBoolean(), invariant.toString());
    assertFalse(invariant.has("note"), invariant.toString());
  }

  /** What a run reports, without its timings and its folder. */
  private record Run(JsonNode summary, List<JsonNode> epochs, String err) {}

  private Run train(String model, String schedule, int devices, int workers) throws IOException {
    Path out = dir.resolve(model + "-" + schedule + devices + "-w" + workers);
    CliRuns.Outcome f =
        CliRuns.run(
            List.of(
                "train",
                "--data",
                DataFiles.fixture("cuts/CollegeMsg-head300.txt").toString(),
                "--model",
                model,
                "--epochs",
                "1",
                "--batch-size",
                "20",
                "--eval-negatives",
                "3",
                "--seed",
                "3",
                "--schedule",
                schedule,
                "--devices",
                String.valueOf(devices),
                "--workers",
                String.valueOf(workers),
                "--sampler-threads",
                "1",
                "--quiet",
                "--json",
                "--out",
                out.toString()));
    ObjectNode summary = (ObjectNode) f.summary();
    summary.remove(List.of("trainEventsPerSecond", "out"));
    List<JsonNode> epochs = new ArrayList<>();
    for (String line : Files.readAllLines(out.resolve("metrics.jsonl"))) {
      JsonNode m = JSON.readTree(line);
      ObjectNode kept = JSON.createObjectNode();
      for (String key :
          List.of("epoch", "trainLoss", "valAp", "valAuc", "valLoss", "parameterChecksum")) {
        kept.set(key, m.get(key));
      }
      epochs.add(kept);
    }
    return new Run(summary, epochs, f.err());
  }
}
