package dev.depbloom.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.api.Interaction;
import dev.depbloom.api.ServedRuns;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.EventStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server against clients that would poison, stall or exhaust it, each with a real HTTP client
 * (the JDK's) or a raw socket: a far-future time refused with the state unchanged bit for bit, two
 * half-sent requests while {@code /health} answers within a second, a million-candidate rank
 * refused naming its limit, {@code /score} and {@code /rank} agreeing to the bit, strict JSON, junk
 * ids refused, {@code HEAD}.
 */
@Tag(Kernels.TRAINS)
class HostileClientsTest {
  /** Floats read back exactly as written: the decimal text, not a double rounded to a float. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  @TempDir static Path dir;
  private static Path run;
  private static EventStream stream;

  private TemporalLinkPredictor predictor;
  private PredictionServer server;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  @BeforeAll
  static void train() {
    ServedRuns.Trained trained = ServedRuns.trainTgn(dir);
    run = trained.run();
    stream = trained.stream();
  }

  @BeforeEach
  void start() {
    predictor = TemporalLinkPredictor.load(run);
    ServerLimits limits = ServerLimits.DEFAULTS.withTimeouts(2, 2);
    server =
        PredictionServer.start(
            predictor, new PredictionServer.Options("127.0.0.1", 0, 2, null, 5, limits, 0));
  }

  @AfterEach
  void stop() {
    server.close();
    predictor.close();
  }

  private record Reply(int status, String body) {
    JsonNode json() throws Exception {
      return JSON.readTree(body);
    }

    String error() throws Exception {
      return json().get("error").asText();
    }
  }

  private Reply send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.uri() + path)).timeout(Duration.ofSeconds(10));
    b =
        body == null
            ? b.method(method, HttpRequest.BodyPublishers.noBody())
            : b.method(method, HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }

  private static String event(long src, long dst, String time) {
    return String.format(Locale.ROOT, "{\"src\": %d, \"dst\": %d, \"time\": %s}", src, dst, time);
  }

  /** Ten pairs of the stream's test events, at the newest observed time. */
  private static String probe() {
    StringBuilder pairs = new StringBuilder();
    for (int e = 510; e < 600; e += 9) {
      Interaction i = ServedRuns.interaction(stream, e);
      pairs.append(pairs.length() == 0 ? "" : ", ");
      pairs.append(String.format("{\"src\": %d, \"dst\": %d}", i.source(), i.destination()));
    }
    return "{\"pairs\": [" + pairs + "]}";
  }

  /** The scores of an answer as the floats written, bit for bit. */
  private static float[] floats(JsonNode scores) {
    float[] out = new float[scores.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Float.parseFloat(scores.get(i).decimalValue().toString());
    }
    return out;
  }

  @Test
  void aFarFutureTimeIsRefusedAndTheStateStaysBitForBit() throws Exception {
    float[] before = floats(send("POST", "/score", probe()).json().get("scores"));
    Interaction e = ServedRuns.interaction(stream, 510);
    String inMilliseconds = String.format(Locale.ROOT, "%.0f", e.time() * 1000);
    for (String time : new String[] {"1e308", "1e39", inMilliseconds}) {
      Reply r = send("POST", "/events", event(e.source(), e.destination(), time));
      assertEquals(400, r.status(), r.body());
      assertTrue(r.error().contains("is more than the time horizon"), r.body());
      Reply q = send("POST", "/score", event(e.source(), e.destination(), time));
      assertEquals(400, q.status(), q.body());
      assertTrue(q.error().startsWith("request: \"time\": "), q.body()); // one pair: "request"
    }
    assertEquals(0, predictor.version());
    assertArrayEquals(before, floats(send("POST", "/score", probe()).json().get("scores")));
    Reply real = send("POST", "/events", event(e.source(), e.destination(), e.time() + ""));
    assertEquals(200, real.status(), real.body()); // real events are still accepted
  }

  @Test
  void twoHalfSentRequestsStallNeitherHealthNorScores() throws Exception {
    try (Socket head = new Socket("127.0.0.1", server.port());
        Socket body = new Socket("127.0.0.1", server.port())) {
      head.getOutputStream().write(ascii("POST /score HTTP/1.1\r\nHost: x\r\nContent-Le"));
      body.getOutputStream()
          .write(ascii("POST /score HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"src\""));
      head.getOutputStream().flush();
      body.getOutputStream().flush();
      for (int i = 0; i < 3; i++) {
        long t0 = System.nanoTime();
        assertEquals(200, send("GET", "/health", null).status());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 1, "health took " + seconds + " s");
        assertEquals(200, send("POST", "/score", probe()).status()); // the model workers are free
      }
      body.setSoTimeout(10_000);
      String answer = new String(readAll(body.getInputStream()), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 408"), answer); // the body's idle timeout (2 s)
      head.setSoTimeout(10_000);
      assertEquals(-1, head.getInputStream().read(), "the half head's connection is closed");
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] readAll(InputStream in) throws Exception {
    return in.readAllBytes();
  }

  @Test
  void aMillionCandidateRankAndTooManyPairsAreRefusedNamingTheLimit() throws Exception {
    StringBuilder c = new StringBuilder("{\"src\": 3, \"candidates\": [1000");
    for (int i = 1; i < 1_000_000; i++) {
      c.append(", 1000");
    }
    Reply r = send("POST", "/rank", c.append("]}").toString());
    assertEquals(413, r.status(), r.body());
    assertEquals(
        "request: \"candidates\": 1,000,000 candidates, more than the limit of 10,000"
            + " (--max-candidates); rank them in parts",
        r.error());
    StringBuilder p = new StringBuilder("{\"pairs\": [");
    for (int i = 0; i <= 10_000; i++) {
      p.append(i == 0 ? "" : ", ").append("{\"src\": 3, \"dst\": 1000}");
    }
    Reply pairs = send("POST", "/score", p.append("]}").toString());
    assertEquals(413, pairs.status(), pairs.body());
    assertTrue(pairs.error().contains("(--max-pairs)"), pairs.body());
    assertEquals(200, send("GET", "/health", null).status());
  }

  @Test
  void scoreAndRankGiveTheSamePairTheSameFloat() throws Exception {
    long user = ServedRuns.interaction(stream, 520).source();
    long[] items = {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};
    StringBuilder list = new StringBuilder();
    StringBuilder pairs = new StringBuilder();
    for (long item : items) {
      list.append(list.length() == 0 ? "" : ", ").append(item);
      pairs.append(pairs.length() == 0 ? "" : ", ");
      pairs.append(String.format("{\"src\": %d, \"dst\": %d}", user, item));
    }
    JsonNode ranking =
        send("POST", "/rank", "{\"src\": " + user + ", \"candidates\": [" + list + "], \"k\": 8}")
            .json()
            .get("ranking");
    float[] listed =
        floats(send("POST", "/score", "{\"pairs\": [" + pairs + "]}").json().get("scores"));
    for (JsonNode n : ranking) {
      long item = n.get("node").asLong();
      float ranked = Float.parseFloat(n.get("score").decimalValue().toString());
      float alone =
          floats(
              send("POST", "/score", String.format("{\"src\": %d, \"dst\": %d}", user, item))
                  .json()
                  .get("scores"))[0];
      int at = java.util.Arrays.binarySearch(items, item);
      assertEquals(Float.floatToIntBits(alone), Float.floatToIntBits(ranked), "item " + item);
      assertEquals(Float.floatToIntBits(listed[at]), Float.floatToIntBits(ranked), "item " + item);
    }
  }

  @Test
  void strictJsonJunkIdsAndHeadAreAnsweredInTheProjectsWords() throws Exception {
    Reply trailing = send("POST", "/score", "{\"src\": 3, \"dst\": 1000} xyz");
    assertEquals(400, trailing.status());
    assertEquals(
        "line 1, column 25: more after the JSON object (a request is one object)",
        trailing.error());
    Reply rank = send("POST", "/rank", "{\"src\": 3, \"candidates\": [1000]} {}");
    assertEquals(400, rank.status());
    Interaction e = ServedRuns.interaction(stream, 510);
    String t = e.time() + "";
    Reply twoOnALine = send("POST", "/events", event(3, 1000, t) + " " + event(3, 1001, t) + "\n");
    assertEquals(400, twoOnALine.status());
    assertTrue(twoOnALine.error().contains("a second JSON value on the line"), twoOnALine.body());
    for (long junk : new long[] {-1, 1L << 62}) {
      Reply r = send("POST", "/events", event(junk, 1000, t));
      assertEquals(400, r.status(), r.body());
      assertTrue(r.error().contains("is outside the id space [0, "), r.body());
      Reply q = send("POST", "/score", event(3, junk, t));
      assertEquals(400, q.status(), q.body());
    }
    assertEquals(0, predictor.newNodeCount());
    assertEquals(0, predictor.version());
    String metrics = send("GET", "/metrics", null).body();
    assertTrue(metrics.contains("\ndepbloom_refused_node_ids_total 2\n"), metrics);
    Reply nan = send("POST", "/score", "{\"src\": 3, \"dst\": NaN}");
    assertEquals(400, nan.status());
    assertFalse(nan.error().contains("JsonReadFeature"), nan.body());
    assertTrue(nan.error().startsWith("line 1, column "), nan.body());
    HttpResponse<String> head =
        client.send(
            HttpRequest.newBuilder(URI.create(server.uri() + "/health"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    assertEquals(405, send("DELETE", "/health", null).status());
  }
}
