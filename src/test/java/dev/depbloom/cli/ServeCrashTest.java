package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.api.Interaction;
import dev.depbloom.api.LinkQuery;
import dev.depbloom.api.ServedRuns;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.EventStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code depbloom serve} in a process of its own, killed with {@code kill -9} after it acknowledged
 * N batches of events: the restart answers from the state after all N, bit for bit as a predictor
 * that was never interrupted, at version N.
 */
@Tag(Kernels.TRAINS)
class ServeCrashTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final Pattern SERVING = Pattern.compile("on (http://127\\.0\\.0\\.1:\\d+) ");

  @TempDir static Path dir;
  private static Path run;
  private static EventStream stream;
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void train() {
    ServedRuns.Trained trained = ServedRuns.trainTgn(dir);
    run = trained.run();
    stream = trained.stream();
  }

  private record Served(Process process, URI uri) {}

  /** Starts {@code depbloom serve} on a free port in a JVM of its own; waits until it listens. */
  private static Served serve(Path log) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of("serve", run.toString(), "--port", "0", "--threads", "1", "--snapshot-every", "0"));
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Matcher m = SERVING.matcher(Files.exists(log) ? Files.readString(log) : "");
      if (m.find()) {
        return new Served(p, URI.create(m.group(1)));
      }
      if (!p.isAlive()) {
        throw new AssertionError("serve exited: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    p.destroyForcibly();
    throw new AssertionError("serve did not start within 60 s: " + Files.readString(log));
  }

  private HttpResponse<String> post(URI base, String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String lines(List<Interaction> events) {
    StringBuilder b = new StringBuilder();
    for (Interaction e : events) {
      StringBuilder f = new StringBuilder();
      for (float x : e.features()) {
        f.append(f.length() == 0 ? "" : ", ").append(x);
      }
      b.append(
          String.format(
              Locale.ROOT,
              "{\"src\": %d, \"dst\": %d, \"time\": %s, \"features\": [%s]}%n",
              e.source(),
              e.destination(),
              e.time(),
              f));
    }
    return b.toString();
  }

  @Test
  void acknowledgedBatchesSurviveKillNineBitForBit() throws Exception {
    int batches = 6;
    List<List<Interaction>> calls = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      calls.add(ServedRuns.interactions(stream, 510 + 7 * b, 517 + 7 * b));
    }
    List<LinkQuery> probe = new ArrayList<>();
    StringBuilder pairs = new StringBuilder();
    for (int e = 510; e < 600; e += 9) {
      Interaction i = ServedRuns.interaction(stream, e);
      probe.add(new LinkQuery(i.source(), i.destination(), TemporalLinkPredictor.NEWEST));
      pairs.append(pairs.length() == 0 ? "" : ", ");
      pairs.append(String.format("{\"src\": %d, \"dst\": %d}", i.source(), i.destination()));
    }
    float[] expected;
    try (TemporalLinkPredictor uninterrupted = TemporalLinkPredictor.load(run)) {
      for (List<Interaction> call : calls) {
        uninterrupted.observe(call);
      }
      expected = uninterrupted.score(probe).scores();
    }

    Served first = serve(dir.resolve("first.log"));
    try {
      for (List<Interaction> call : calls) {
        HttpResponse<String> r = post(first.uri(), "/events", lines(call));
        assertEquals(200, r.statusCode(), r.body()); // acknowledged
      }
    } finally {
      first.process().destroyForcibly(); // SIGKILL: no shutdown hook, no snapshot
      first.process().waitFor(30, TimeUnit.SECONDS);
    }
    assertTrue(!Files.exists(run.resolve("serving/snapshot.bin")), "no snapshot was written");

    Served second = serve(dir.resolve("second.log"));
    try {
      JsonNode scored =
          JSON.readTree(post(second.uri(), "/score", "{\"pairs\": [" + pairs + "]}").body());
      assertEquals(batches, scored.get("version").asLong());
      float[] actual = new float[expected.length];
      for (int i = 0; i < actual.length; i++) {
        actual[i] = Float.parseFloat(scored.get("scores").get(i).decimalValue().toString());
      }
      assertArrayEquals(expected, actual);
    } finally {
      second.process().destroy();
      second.process().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
