package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.DataFiles;
import dev.depbloom.data.EventStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --resume}: a training process killed after its first checkpoint, then resumed, ends with
 * exactly the metrics of an uninterrupted run with the same seed.
 */
@Tag(Kernels.TRAINS)
class TrainResumeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private Path data;

  @BeforeEach
  void writeData() throws IOException {
    EventStream s = TinyStreams.random(150, 4000, 0, 11);
    data = TinyStreams.writeCsv(s, dir.resolve("events.csv"));
  }

  private List<String> args(Path out, int epochs) {
    return args(out, epochs, "1,1", "");
  }

  /** {@code schedule} "disttgl" adds DistTGL on 4 devices in 2 memory groups. */
  private List<String> args(Path out, int epochs, String threads, String schedule) {
    List<String> a = baseArgs(out, epochs, threads);
    if (schedule.equals("disttgl")) {
      a.addAll(
          List.of(
              "--schedule", "disttgl", "--devices", "4", "--set", "schedule.memory_parallelism=2"));
    }
    return a;
  }

  private List<String> baseArgs(Path out, int epochs, String threads) {
    return new ArrayList<>(
        List.of(
            "train",
            "--data",
            data.toString(),
            "--edge-feature-dim",
            "4",
            "--epochs",
            String.valueOf(epochs),
            "--batch-size",
            "100",
            "--eval-negatives",
            "5",
            "--set",
            "memory.dim_out=16",
            "--set",
            "memory.dim_time=8",
            "--set",
            "gnn.dim_out=16",
            "--set",
            "gnn.dim_time=8",
            "--threads",
            threads,
            "--sampler-threads",
            "1",
            "--seed",
            "5",
            "--quiet",
            "--json",
            "--out",
            out.toString()));
  }

  /**
   * Sequential on one worker and on two (the default budget on two cores), and DistTGL with two
   * memory groups, whose second group's memory carries over from epoch to epoch: only a checkpoint
   * of every memory copy resumes it exactly.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"1,1|sequential", "1,1,2|sequential", "1,1,2|disttgl"})
  void aKilledRunResumedFromItsLastCheckpointEndsWithTheUninterruptedMetrics(
      String threads, String schedule) throws Exception {
    Path whole = dir.resolve("whole");
    JsonNode uninterrupted = CliRuns.runInProcess(args(whole, 4, threads, schedule));

    Path cut = dir.resolve("cut");
    Process p = startJvm(args(cut, 4, threads, schedule));
    Path state = cut.resolve("state.json");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!(Files.exists(state) && CliRuns.lastEpoch(state) >= 1)
        && System.nanoTime() < deadline) {
      assertTrue(p.isAlive(), "training exited before it could be interrupted");
      Thread.sleep(20);
    }
    p.destroyForcibly().waitFor();
    int reached = CliRuns.lastEpoch(state);
    assertTrue(reached >= 1 && reached < 4, "killed after epoch " + reached);
    assertTrue(!Files.exists(cut.resolve("test.json")), "the killed run must not have finished");

    JsonNode resumed =
        CliRuns.runInProcess(List.of("train", "--resume", cut.toString(), "--quiet", "--json"));
    for (String key :
        List.of(
            "epochs",
            "valAp",
            "bestValAp",
            "bestEpoch",
            "testAp",
            "testAuc",
            "testMrr",
            "testNewNodeAp",
            "testApContinued",
            "testMrrContinued")) {
      assertEquals(uninterrupted.get(key), resumed.get(key), key);
    }
    assertEquals(
        Files.readAllLines(whole.resolve("metrics.jsonl")).size(),
        Files.readAllLines(cut.resolve("metrics.jsonl")).size());
  }

  @Test
  void evaluatingASavedRunReproducesItsTestMetrics() throws Exception {
    Path run = dir.resolve("run");
    JsonNode trained = CliRuns.runInProcess(args(run, 1));
    JsonNode evaluated =
        CliRuns.runInProcess(List.of("evaluate", run.toString(), "--quiet", "--json"));
    for (String key :
        List.of(
            "testAp",
            "testAuc",
            "testMrr",
            "testNewNodeAp",
            "testApContinued",
            "testAucContinued",
            "testMrrContinued",
            "testNewNodeApContinued")) {
      assertTrue(trained.has(key), key);
      assertEquals(trained.get(key), evaluated.get(key), key);
    }
  }

  @Test
  void evaluatingARunOnDataThatDoesNotStartAtTimeZeroFindsItsEvents() throws Exception {
    Path run = dir.resolve("run");
    JsonNode trained =
        CliRuns.runInProcess(
            List.of(
                "train",
                "--data",
                DataFiles.fixture("cuts/CollegeMsg-head300.txt").toString(), // from 1082040961
                "--model",
                "jodie",
                "--epochs",
                "1",
                "--batch-size",
                "100",
                "--eval-negatives",
                "2",
                "--threads",
                "1,1",
                "--quiet",
                "--json",
                "--out",
                run.toString()));
    JsonNode evaluated =
        CliRuns.runInProcess(List.of("evaluate", run.toString(), "--quiet", "--json"));
    assertEquals(trained.get("testAp"), evaluated.get("testAp"));
  }

  private static Process startJvm(List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(args);
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }
}
