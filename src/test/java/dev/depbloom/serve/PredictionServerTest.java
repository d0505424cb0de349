package dev.depbloom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.api.PredictorOptions;
import dev.depbloom.api.ServedRuns;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.EventStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server driven by a real HTTP client (the JDK's): every endpoint, bad requests answered with
 * 400 naming the line and field and changing nothing, and a graceful shutdown whose snapshot the
 * next start continues from exactly.
 */
@Tag(Kernels.TRAINS)
class PredictionServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  private static Path run;
  private static EventStream stream;

  private TemporalLinkPredictor predictor;
  private PredictionServer server;
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void train() {
    ServedRuns.Trained trained = ServedRuns.trainTgn(dir);
    run = trained.run();
    stream = trained.stream();
  }

  @BeforeEach
  void start() {
    predictor = TemporalLinkPredictor.load(run);
    server = start(predictor, dir.resolve("snapshot.bin"));
  }

  private static PredictionServer start(TemporalLinkPredictor p, Path snapshot) {
    return PredictionServer.start(p, new PredictionServer.Options("127.0.0.1", 0, 2, snapshot, 5));
  }

  @AfterEach
  void stop() {
    server.close();
    predictor.close();
  }

  private record Reply(int status, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  private Reply send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.uri() + path));
    b =
        body == null
            ? b.method(method, HttpRequest.BodyPublishers.noBody())
            : b.method(method, HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }

  /** Test event {@code e} as a JSON object (original ids and time, features). */
  private static String event(int e) {
    var i = ServedRuns.interaction(stream, e);
    StringBuilder f = new StringBuilder();
    for (float x : i.features()) {
      f.append(f.length() == 0 ? "" : ", ").append(x);
    }
    return String.format(
        Locale.ROOT,
        "{\"src\": %d, \"dst\": %d, \"time\": %s, \"features\": [%s]}",
        i.source(),
        i.destination(),
        i.time(),
        f);
  }

  private String probe() {
    StringBuilder pairs = new StringBuilder();
    for (int e = 510; e < 600; e += 9) {
      var i = ServedRuns.interaction(stream, e);
      pairs
          .append(pairs.length() == 0 ? "" : ", ")
          .append(
              String.format(
                  Locale.ROOT, "{\"src\": %d, \"dst\": %d}", i.source(), i.destination()));
    }
    return "{\"pairs\": [" + pairs + "]}";
  }

  @Test
  void eventsAsJsonLinesOrAnArrayAreObservedAndScoresAnswerFromTheNewVersion() throws Exception {
    Reply health = send("GET", "/health", null);
    assertEquals(200, health.status());
    assertEquals(0, health.json().get("version").asLong());
    assertEquals("tgn", health.json().get("model").asText());
    String lines = event(510) + "\n" + event(511) + "\n" + event(512) + "\n";
    Reply observed = send("POST", "/events", lines);
    assertEquals(200, observed.status(), observed.body());
    assertEquals(3, observed.json().get("observed").asInt());
    assertEquals(1, observed.json().get("version").asLong());
    Reply array = send("POST", "/events?score=true", "[" + event(513) + ",\n" + event(514) + "]");
    assertEquals(200, array.status(), array.body());
    assertEquals(2, array.json().get("scores").size());
    assertEquals(2, predictor.version());
    Reply scores = send("POST", "/score", probe());
    assertEquals(200, scores.status(), scores.body());
    assertEquals(2, scores.json().get("version").asLong());
    var i = ServedRuns.interaction(stream, 599);
    float direct = predictor.score(i.source(), i.destination(), predictor.newestTime());
    Reply one =
        send(
            "POST",
            "/score",
            String.format(Locale.ROOT, "{\"src\": %d, \"dst\": %d}", i.source(), i.destination()));
    assertEquals(direct, (float) one.json().get("scores").get(0).asDouble());
  }

  @Test
  void rankAnswersTheTopCandidatesBestFirst() throws Exception {
    long user = ServedRuns.interaction(stream, 520).source();
    Reply r =
        send(
            "POST",
            "/rank",
            "{\"src\": " + user + ", \"candidates\": [1000, 1001, 1002, 1003, 1004], \"k\": 3}");
    assertEquals(200, r.status(), r.body());
    JsonNode ranking = r.json().get("ranking");
    assertEquals(3, ranking.size());
    assertTrue(ranking.get(0).get("score").asDouble() >= ranking.get(1).get("score").asDouble());
  }

  @Test
  void aBadRequestGets400NamingTheLineAndFieldAndChangesNothing() throws Exception {
    String before = send("POST", "/score", probe()).body();
    String late =
        ServedRuns.interaction(stream, 510).time() - 100 + ""; // before the newest observed event
    List<String[]> cases =
        List.of(
            new String[] {
              event(510) + "\n{\"src\": 3, \"dst\": 1000, \"time\": \"soon\"}\n",
              "line 2: \"time\": expected a number, got \"soon\""
            },
            new String[] {
              "[" + event(510) + ",\n" + event(511) + ", {\"src\": 3, \"dst\": 1000}]",
              "line 2, event 3: \"time\": missing (expected a number)"
            },
            new String[] {
              event(510) + "\n{\"src\": 3, \"dst\": 1000, \"time\": " + late + "}\n",
              "line 2: \"time\": "
            },
            new String[] {
              "{\"src\": 3, \"dst\": 1000, \"time\": 1010, \"weight\": 1}",
              "line 1: unknown field \"weight\" (expected dst, features, src, time)"
            },
            new String[] {
              "{\"src\": 3, \"dst\": 1000, \"time\": 1010, \"features\": [1, 2]}",
              "line 1: \"features\": expected 3 numbers"
            },
            new String[] {
              "{\"src\": 3, \"dst\": 1000, \"time\": 1010",
              "line 1, column 37: the JSON ends before its value is complete"
            },
            new String[] {"", "no events"});
    for (String[] c : cases) {
      Reply r = send("POST", "/events", c[0]);
      assertEquals(400, r.status(), c[0]);
      assertTrue(r.json().get("error").asText().startsWith(c[1]), r.body());
    }
    Reply badPair = send("POST", "/score", "{\"pairs\": [{\"src\": 3, \"dst\": \"x\"}]}");
    assertEquals(400, badPair.status());
    assertEquals(
        "pairs[0]: \"dst\": expected an integer node id, got \"x\"",
        badPair.json().get("error").asText());
    assertEquals(0, predictor.version());
    assertEquals(0, predictor.newNodeCount());
    assertEquals(before, send("POST", "/score", probe()).body());
    assertEquals(404, send("GET", "/nothing", null).status());
    assertEquals(405, send("GET", "/events", null).status());
  }

  @Test
  void metricsCountRequestsAndTimeThemInPrometheusText() throws Exception {
    send("POST", "/events", event(510));
    send("POST", "/events", "{}");
    send("POST", "/score", probe());
    Reply m = send("GET", "/metrics", null);
    assertEquals(200, m.status());
    String text = m.body();
    assertTrue(
        text.contains("depbloom_requests_total{endpoint=\"/events\",status=\"200\"} 1\n"), text);
    assertTrue(
        text.contains("depbloom_requests_total{endpoint=\"/events\",status=\"400\"} 1\n"), text);
    assertTrue(
        text.contains("depbloom_request_seconds_bucket{endpoint=\"/score\",le=\"+Inf\"} 1\n"),
        text);
    assertTrue(text.contains("depbloom_request_seconds_count{endpoint=\"/score\"} 1\n"), text);
    assertTrue(text.contains("# TYPE depbloom_request_seconds histogram\n"), text);
    assertTrue(text.contains("depbloom_events_observed_total 1\n"), text);
    assertTrue(text.contains("depbloom_memory_version 1\n"), text);
  }

  @Test
  void aGracefulShutdownWritesASnapshotTheNextStartContinuesExactly() throws Exception {
    Path snapshot = dir.resolve("shutdown.bin");
    Files.deleteIfExists(snapshot);
    server.close();
    server = start(predictor, snapshot);
    send("POST", "/events", event(510) + "\n" + event(511));
    Reply posted = send("POST", "/snapshot", null);
    assertEquals(200, posted.status(), posted.body());
    assertEquals(1, posted.json().get("version").asLong());
    send("POST", "/events", event(512) + "\n" + event(513));
    server.close(); // drains, then writes the snapshot
    String expected = send2(predictor, probe());
    try (TemporalLinkPredictor restarted =
        TemporalLinkPredictor.load(run, PredictorOptions.defaults().withSnapshot(snapshot))) {
      assertEquals(2, restarted.version());
      assertEquals(expected, send2(restarted, probe()));
    }
  }

  /** A periodic snapshot holds what the journal had, and empties it; an unchanged state is left. */
  @Test
  void periodicSnapshotsEmptyTheJournal() throws Exception {
    Path snapshot = dir.resolve("periodic.bin");
    Path journal = dir.resolve("periodic.journal");
    Files.deleteIfExists(snapshot);
    Files.deleteIfExists(journal);
    server.close();
    predictor.close();
    predictor = TemporalLinkPredictor.load(run, PredictorOptions.defaults().withJournal(journal));
    long header = Files.size(journal);
    server =
        PredictionServer.start(
            predictor,
            new PredictionServer.Options("127.0.0.1", 0, 2, snapshot, 5, ServerLimits.DEFAULTS, 1));
    assertEquals(200, send("POST", "/events", event(510) + "\n" + event(511)).status());
    assertTrue(Files.size(journal) > header, "the batch is journaled before it is answered");
    long deadline = System.nanoTime() + 10_000_000_000L;
    while ((!Files.exists(snapshot) || Files.size(journal) > header)
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(Files.exists(snapshot), "a snapshot within 10 s at one a second");
    assertEquals(header, Files.size(journal));
    try (TemporalLinkPredictor restored =
        TemporalLinkPredictor.load(run, PredictorOptions.defaults().withSnapshot(snapshot))) {
      assertEquals(1, restored.version());
    }
  }

  /** {@code POST /score} of {@code body} on a fresh server over {@code p}, its answer's body. */
  private String send2(TemporalLinkPredictor p, String body) throws Exception {
    PredictionServer other = start(p, null);
    try {
      HttpRequest r =
          HttpRequest.newBuilder(URI.create(other.uri() + "/score"))
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build();
      return client.send(r, HttpResponse.BodyHandlers.ofString()).body();
    } finally {
      other.close();
    }
  }
}
