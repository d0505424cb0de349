package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code depbloom launch}: ranks as real JVMs joined by Gloo over loopback. Two ranks of one
 * logical device each train exactly as one process with two workers; a rank killed with SIGKILL
 * stops the other within a minute, naming it; the run resumes to the uninterrupted metrics. The
 * one-process runs compared with are JVMs of their own too, started as the ranks are ({@link
 * #KERNELS}).
 */
@Tag(Kernels.TRAINS)
class LaunchCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The environment of every JVM this class starts: where the CPU has AVX2, OpenBLAS's Haswell
   * kernels. Their products round differently with 1 and 2 BLAS threads, where the AVX-512 kernels
   * of the machine this was found on do not; so a run whose arithmetic depends on how many workers
   * share the cores (validation once took the BLAS threads of all workers) fails these comparisons
   * on any AVX2 machine, not only on those without AVX-512. Empty elsewhere.
   */
  private static final Map<String, String> KERNELS = haswellKernelsWhereSupported();

  @TempDir Path dir;
  private Path data;

  @BeforeEach
  void writeData() throws IOException {
    EventStream s = TinyStreams.random(120, 3000, 0, 13);
    data = TinyStreams.writeCsv(s, dir.resolve("events.csv"));
  }

  /**
   * A train command of {@code schedule}: {@code disttgl} or {@code depbloom} on 2 devices, {@code
   * depbloom-prefill} (two contiguous chains with window-start prefill, which every rank runs for
   * every view), or {@code depbloom-groups}, DepBloom in 2 memory groups (machines) of one device
   * each (one device per rank keeps the gradient sum's order that of one process: with two devices
   * on a rank, the rank's partial sum is added to the other's, which rounds differently from the
   * device-order sum in one process, in the last bits).
   */
  private List<String> train(Path out, int epochs, String schedule) {
    boolean groups = schedule.equals("depbloom-groups");
    List<String> a =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--epochs",
                String.valueOf(epochs),
                "--batch-size",
                "100",
                "--eval-negatives",
                "3",
                "--set",
                "memory.dim_out=16",
                "--set",
                "memory.dim_time=8",
                "--set",
                "gnn.dim_out=16",
                "--set",
                "gnn.dim_time=8",
                "--schedule",
                groups || schedule.startsWith("depbloom") ? "depbloom" : schedule,
                "--devices",
                "2",
                "--threads",
                "1,1",
                "--sampler-threads",
                "1",
                "--seed",
                "7",
                "--quiet",
                "--json",
                "--out",
                out.toString()));
    if (groups) {
      a.addAll(
          List.of(
              "--set",
              "schedule.memory_parallelism=2",
              "--set",
              "schedule.chains=1",
              "--set",
              "schedule.micro_batches=1",
              "--set",
              "schedule.window=600"));
    } else if (schedule.equals("depbloom-prefill")) {
      a.addAll(
          List.of(
              "--set",
              "schedule.chains=2",
              "--set",
              "schedule.micro_batches=1",
              "--set",
              "schedule.window=600",
              "--set",
              "schedule.prefill=true"));
    } else if (schedule.equals("depbloom")) {
      a.addAll(
          List.of(
              "--set",
              "schedule.chains=2",
              "--set",
              "schedule.micro_batches=1",
              "--set",
              "schedule.window=600",
              "--set",
              "schedule.partitioner=topology"));
    }
    return a;
  }

  /**
   * The same metrics, epoch by epoch, and the same parameters: each rank runs one device, so the
   * gradient sum adds the same two numbers as one process does.
   */
  @ParameterizedTest
  @ValueSource(strings = {"disttgl", "depbloom", "depbloom-prefill"})
  void twoLaunchedRanksTrainExactlyAsOneProcessWithTwoWorkers(String schedule) throws Exception {
    Path single = dir.resolve("single");
    List<String> inProcess = train(single, 2, schedule);
    inProcess.addAll(List.of("--workers", "2"));
    JsonNode expected = runAlone(inProcess);

    Path launched = dir.resolve("launched");
    Launched l = launch(List.of("--nproc", "2"), train(launched, 2, schedule));
    assertEquals(
        0, l.process().waitFor(240, TimeUnit.SECONDS) ? l.process().exitValue() : -1, l.output());
    JsonNode got = summary(l.stdout(), 0);
    for (String key :
        List.of("epochs", "valAp", "bestEpoch", "testAp", "testAuc", "testMrr", "testNewNodeAp")) {
      assertEquals(expected.get(key), got.get(key), key);
    }
    List<String> one = Files.readAllLines(single.resolve("metrics.jsonl"));
    List<String> two = Files.readAllLines(launched.resolve("metrics.jsonl"));
    assertEquals(one.size(), two.size());
    for (int e = 0; e < one.size(); e++) {
      JsonNode a = JSON.readTree(one.get(e));
      JsonNode b = JSON.readTree(two.get(e));
      for (String key :
          List.of("trainLoss", "trainEvents", "valAp", "valAuc", "parameterChecksum")) {
        assertEquals(a.get(key), b.get(key), "epoch " + (e + 1) + ": " + key);
      }
      JsonNode ranks = b.get("ranks");
      assertEquals(2, ranks.size());
      for (JsonNode r : ranks) {
        assertEquals(a.get("parameterChecksum"), r.get("parameterChecksum"));
        assertTrue(r.get("gradientBytes").asLong() > 0 && r.get("memoryBytes").asLong() > 0);
      }
      assertEquals(0, a.get("bytesSent").asLong());
      assertTrue(b.get("bytesSent").asLong() > 0);
    }
    assertFalse(l.stdout().contains("[rank 1] {"), "rank 1 prints no summary: " + l.stdout());
    assertTrue(Files.exists(launched.resolve("test.json")));
    JsonNode devices = JSON.readTree(two.get(0)).get("devices");
    assertTrue(devices.get(1).get("train").asDouble() > 0, "rank 1's device times: " + devices);
  }

  /**
   * Two launchers posing as two machines on loopback (--nnodes 2, one rank each, rank 0's machine
   * given as --master), in the paper's multi-node setting: DepBloom in one memory group per
   * machine. The run is the one-process run.
   */
  @Test
  void twoMachinesOfOneRankEachTrainExactlyAsOneProcess() throws Exception {
    Path single = dir.resolve("single");
    List<String> inProcess = train(single, 1, "depbloom-groups");
    inProcess.addAll(List.of("--workers", "2"));
    JsonNode expected = runAlone(inProcess);

    String master = "127.0.0.1:" + freePort();
    Path launched = dir.resolve("launched");
    List<Launched> nodes = new ArrayList<>();
    for (int node = 0; node < 2; node++) {
      nodes.add(
          launch(
              List.of(
                  "--nproc",
                  "1",
                  "--nnodes",
                  "2",
                  "--node-rank",
                  String.valueOf(node),
                  "--master",
                  master),
              train(launched, 1, "depbloom-groups")));
    }
    for (Launched n : nodes) {
      assertTrue(n.process().waitFor(240, TimeUnit.SECONDS));
      assertEquals(0, n.process().exitValue(), n.output());
    }
    assertTrue(nodes.get(1).stderr().contains("ranks 1..1 of 2 on this machine (node 1 of 2)"));
    JsonNode got = summary(nodes.get(0).stdout(), 0);
    for (String key : List.of("valAp", "testAp", "testAuc", "testMrr")) {
      assertEquals(expected.get(key), got.get(key), key);
    }
    assertEquals(
        JSON.readTree(Files.readAllLines(single.resolve("metrics.jsonl")).get(0))
            .get("parameterChecksum"),
        JSON.readTree(Files.readAllLines(launched.resolve("metrics.jsonl")).get(0))
            .get("parameterChecksum"));
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void aRankKilledMidEpochStopsTheOtherWithinAMinuteNamingItAndResumeEndsAsIfUninterrupted()
      throws Exception {
    List<String> whole = train(dir.resolve("whole"), 4, "disttgl");
    whole.addAll(List.of("--workers", "2"));
    JsonNode uninterrupted = runAlone(whole);

    Path cut = dir.resolve("cut");
    Launched l = launch(List.of("--nproc", "2"), train(cut, 4, "disttgl"));
    Path state = cut.resolve("state.json");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!(Files.exists(state) && CliRuns.lastEpoch(state) >= 1)
        && System.nanoTime() < deadline) {
      assertTrue(l.process().isAlive(), "the run ended before it could be interrupted");
      Thread.sleep(20);
    }
    long rank1 = pid(l.stderr(), 1);
    ProcessHandle.of(rank1).orElseThrow().destroyForcibly(); // SIGKILL, as kill -9
    long killed = System.nanoTime();
    assertTrue(l.process().waitFor(90, TimeUnit.SECONDS), "the launcher did not stop");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
    assertTrue(seconds < 60, "rank 0 took " + seconds + " s to stop");
    assertNotEquals(0, l.process().exitValue());
    int reached = CliRuns.lastEpoch(state);
    assertTrue(reached >= 1 && reached < 4, "killed after epoch " + reached);
    String err = l.stderr();
    Matcher m = Pattern.compile("\\[rank 0\\] depbloom: error: (.*)").matcher(err);
    assertTrue(m.find(), err);
    assertTrue(m.group(1).contains("rank 1 stopped responding"), m.group(1));
    assertTrue(err.contains("depbloom launch: rank 1 exited with status 137 (signal 9)"), err);

    Launched resumed =
        launch(
            List.of("--nproc", "2"),
            List.of("train", "--resume", cut.toString(), "--quiet", "--json"));
    assertTrue(resumed.process().waitFor(240, TimeUnit.SECONDS));
    assertEquals(0, resumed.process().exitValue(), resumed.output());
    JsonNode got = summary(resumed.stdout(), 0);
    for (String key :
        List.of("epochs", "valAp", "bestValAp", "bestEpoch", "testAp", "testAuc", "testMrr")) {
      assertEquals(uninterrupted.get(key), got.get(key), key);
    }
    assertEquals(4, Files.readAllLines(cut.resolve("metrics.jsonl")).size());
  }

  @Test
  void ranksThatCannotShareTheDevicesFailInOneLineAndWriteNothing() throws Exception {
    Path out = dir.resolve("run");
    List<String> sequential = new ArrayList<>(train(out, 1, "disttgl"));
    sequential.set(sequential.indexOf("disttgl"), "sequential");
    sequential.set(sequential.indexOf("--devices") + 1, "1");
    Launched l = launch(List.of("--nproc", "2"), sequential);
    assertTrue(l.process().waitFor(120, TimeUnit.SECONDS));
    assertEquals(2, l.process().exitValue(), l.output());
    for (int rank = 0; rank < 2; rank++) {
      assertTrue(
          l.stderr()
              .contains(
                  "[rank "
                      + rank
                      + "] depbloom: error: WORLD_SIZE=2: 2 processes cannot share the 1 logical"
                      + " device(s) of sequential"),
          l.stderr());
    }
    assertFalse(l.stderr().contains("\tat "), "no stack trace: " + l.stderr());
    assertFalse(Files.exists(out));
  }

  /** A launcher JVM with its standard output and error in files. */
  private record Launched(Process process, Path out, Path err) {
    String stdout() throws IOException {
      return Files.readString(out);
    }

    String stderr() throws IOException {
      return Files.readString(err);
    }

    String output() throws IOException {
      return stdout() + stderr();
    }
  }

  private Launched launch(List<String> options, List<String> command) throws IOException {
    List<String> args = new ArrayList<>(List.of("launch"));
    args.addAll(options);
    args.add("--");
    args.addAll(command);
    return start(args);
  }

  /** {@code command} as one process of its own; its JSON summary (the last line it printed). */
  private JsonNode runAlone(List<String> command) throws Exception {
    Launched l = start(command);
    assertTrue(l.process().waitFor(240, TimeUnit.SECONDS), "the run did not end");
    assertEquals(0, l.process().exitValue(), l.output());
    String[] lines = l.stdout().trim().split("\n");
    return JSON.readTree(lines[lines.length - 1]);
  }

  /** A JVM running the command line with {@code args}, in {@link #KERNELS}' environment. */
  private Launched start(List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(args);
    Path out = Files.createTempFile(dir, "run", ".out");
    Path err = Files.createTempFile(dir, "run", ".err");
    ProcessBuilder b =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    b.environment().putAll(KERNELS);
    return new Launched(b.start(), out, err);
  }

  private static Map<String, String> haswellKernelsWhereSupported() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("flags")) {
          return List.of(line.split("\\s+")).contains("avx2")
              ? Map.of("OPENBLAS_CORETYPE", "Haswell")
              : Map.of();
        }
      }
    } catch (IOException e) {
      // not Linux: the default kernels
    }
    return Map.of();
  }

  /** The pid the launcher reports for a rank. */
  private static long pid(String launcherErr, int rank) {
    Matcher m =
        Pattern.compile("depbloom launch: rank " + rank + ": pid (\\d+)").matcher(launcherErr);
    assertTrue(m.find(), launcherErr);
    return Long.parseLong(m.group(1));
  }

  /** The JSON summary a rank printed last. */
  private static JsonNode summary(String stdout, int rank) throws IOException {
    String prefix = "[rank " + rank + "] {";
    String line = null;
    for (String l : stdout.split("\n")) {
      if (l.startsWith(prefix)) {
        line = l.substring(prefix.length() - 1);
      }
    }
    assertTrue(line != null, stdout);
    return JSON.readTree(line);
  }
}
