package dev.depbloom.serve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.depbloom.api.EventScores;
import dev.depbloom.api.RankedNode;
import dev.depbloom.api.Ranking;
import dev.depbloom.api.RejectedInputException;
import dev.depbloom.api.ScoredLinks;
import dev.depbloom.api.TemporalLinkPredictor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HTTP with JSON in front of a {@link TemporalLinkPredictor}, on the JDK's own server ({@code
 * com.sun.net.httpserver}): {@code POST /events}, {@code POST /score}, {@code POST /rank}, {@code
 * GET /health}, {@code GET /metrics} (Prometheus text), {@code POST /snapshot}. docs/serving.md
 * gives the requests and answers. A refused request gets 400 with one line naming the line or the
 * field, and changes nothing.
 *
 * <p>{@link #close()} shuts down gracefully: it stops accepting requests, lets those in flight
 * finish (up to {@link Options#drainSeconds()}), then writes a snapshot when one is configured. The
 * predictor stays open; its owner closes it.
 */
public final class PredictionServer implements AutoCloseable {
  /** Bodies larger than this are refused with 413. */
  static final int MAX_BODY_BYTES = 64 << 20;

  static {
    // TCP_NODELAY on accepted connections (the JDK server's switch, read once when its first
    // server is made): without it a small answer waits for the client's delayed ACK, 40 ms on
    // Linux, instead of leaving at once
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final TemporalLinkPredictor predictor;
  private final Options options;
  private final HttpServer http;
  private final ExecutorService handlers;
  private final ServerMetrics metrics = new ServerMetrics();
  private final Object flight = new Object(); // guards inFlight and closing
  private int inFlight; // requests being answered
  private boolean closing; // new requests get 503
  private boolean closed;

  /**
   * @param host the address to listen on ({@code 127.0.0.1}: this machine only)
   * @param port the port (0: any free one, see {@link #port()})
   * @param threads request handler threads
   * @param snapshot where {@code POST /snapshot} and a graceful shutdown write the state, or null
   * @param drainSeconds how long a shutdown waits for requests in flight
   */
  public record Options(String host, int port, int threads, Path snapshot, int drainSeconds) {
    public Options {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + threads);
      }
    }
  }

  private PredictionServer(TemporalLinkPredictor predictor, Options options) throws IOException {
    this.predictor = predictor;
    this.options = options;
    this.http = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 128);
    AtomicInteger n = new AtomicInteger();
    this.handlers =
        Executors.newFixedThreadPool(
            options.threads(),
            r -> {
              Thread t = new Thread(r, "depbloom-http-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    http.setExecutor(handlers);
    http.createContext("/", this::handle);
  }

  /** Starts serving {@code predictor}. */
  public static PredictionServer start(TemporalLinkPredictor predictor, Options options) {
    try {
      PredictionServer server = new PredictionServer(predictor, options);
      server.http.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen there: " + e.getMessage(), e);
    }
  }

  /** The port the server listens on. */
  public int port() {
    return http.getAddress().getPort();
  }

  /** {@code http://host:port}. */
  public URI uri() {
    return URI.create("http://" + options.host() + ":" + port());
  }

  /** An answer: status, content type, body. */
  private record Answer(int status, String type, byte[] body) {
    static Answer json(int status, Object value) {
      try {
        return new Answer(status, "application/json", JsonRequests.JSON.writeValueAsBytes(value));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    static Answer error(int status, String message) {
      ObjectNode o = JsonRequests.JSON.createObjectNode();
      o.put("error", message);
      return json(status, o);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    long t0 = System.nanoTime();
    String path = exchange.getRequestURI().getPath();
    String endpoint = Endpoint.known(path) ? path : "other";
    synchronized (flight) {
      if (closing) {
        reply(exchange, Answer.error(503, "shutting down"), endpoint, t0);
        return;
      }
      inFlight++;
    }
    try {
      reply(exchange, answerOrError(exchange, path), endpoint, t0);
    } finally {
      synchronized (flight) {
        inFlight--;
        flight.notifyAll();
      }
    }
  }

  private Answer answerOrError(HttpExchange exchange, String path) {
    Answer answer;
    try {
      answer = answer(exchange, path);
    } catch (BadRequestException | RejectedInputException e) {
      answer = Answer.error(400, e.getMessage());
    } catch (BodyTooLargeException e) {
      answer = Answer.error(413, e.getMessage());
    } catch (IOException e) {
      answer = Answer.error(400, "unreadable request body: " + e.getMessage());
    } catch (RuntimeException | Error e) {
      answer = Answer.error(500, "internal error: " + e);
    }
    return answer;
  }

  /**
   * Records the request, then sends its answer: a client that has its answer finds the request in
   * the next scrape. The latency is from the request's arrival to its answer being ready.
   */
  private void reply(HttpExchange exchange, Answer answer, String endpoint, long t0)
      throws IOException {
    metrics.record(endpoint, answer.status(), (System.nanoTime() - t0) / 1e9);
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", answer.type());
      exchange.sendResponseHeaders(answer.status(), answer.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer.body());
      }
    }
  }

  /** The endpoints and the method each takes. */
  private enum Endpoint {
    EVENTS("/events", "POST"),
    SCORE("/score", "POST"),
    RANK("/rank", "POST"),
    HEALTH("/health", "GET"),
    METRICS("/metrics", "GET"),
    SNAPSHOT("/snapshot", "POST");

    final String path;
    final String method;

    Endpoint(String path, String method) {
      this.path = path;
      this.method = method;
    }

    static Endpoint of(String path) {
      for (Endpoint e : values()) {
        if (e.path.equals(path)) {
          return e;
        }
      }
      return null;
    }

    static boolean known(String path) {
      return of(path) != null;
    }
  }

  private Answer answer(HttpExchange exchange, String path) throws IOException {
    Endpoint e = Endpoint.of(path);
    if (e == null) {
      return Answer.error(404, "no endpoint " + path + " (see docs/serving.md)");
    }
    if (!e.method.equals(exchange.getRequestMethod())) {
      exchange.getResponseHeaders().set("Allow", e.method);
      return Answer.error(405, path + " takes " + e.method);
    }
    return switch (e) {
      case EVENTS -> events(body(exchange), "true".equals(query(exchange, "score")));
      case SCORE -> score(body(exchange));
      case RANK -> rank(body(exchange));
      case HEALTH -> health();
      case METRICS ->
          new Answer(
              200,
              "text/plain; version=0.0.4; charset=utf-8",
              metrics.scrape(predictor).getBytes(StandardCharsets.UTF_8));
      case SNAPSHOT -> snapshot();
    };
  }

  private Answer events(byte[] body, boolean score) {
    JsonRequests.Events parsed = JsonRequests.events(body);
    EventScores scores;
    try {
      scores =
          score
              ? predictor.scoreThenObserve(parsed.events(), null)
              : new EventScores(predictor.observe(parsed.events()), null, null);
    } catch (RejectedInputException e) {
      throw located(e, parsed.places());
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("observed", parsed.events().size());
    o.put("version", scores.version());
    o.put("nodes", predictor.nodeCount());
    o.put("newNodes", predictor.newNodeCount());
    if (score) {
      ArrayNode a = o.putArray("scores");
      for (float s : scores.scores()) {
        a.add(s);
      }
    }
    return Answer.json(200, o);
  }

  /** The API's refusal of event {@code i}, said with the place of that event in the body. */
  private static BadRequestException located(RejectedInputException e, List<String> places) {
    String place = e.index() >= 0 && e.index() < places.size() ? places.get(e.index()) : "request";
    return new BadRequestException(place + ": \"" + e.field() + "\": " + e.problem(), e);
  }

  private Answer score(byte[] body) {
    ScoredLinks s;
    try {
      s = predictor.score(JsonRequests.pairs(body, predictor.newestTime()));
    } catch (RejectedInputException e) {
      String place = e.index() >= 0 ? "pairs[" + e.index() + "]" : "request";
      throw new BadRequestException(place + ": \"" + e.field() + "\": " + e.problem(), e);
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("version", s.version());
    ArrayNode a = o.putArray("scores");
    for (float x : s.scores()) {
      a.add(x);
    }
    return Answer.json(200, o);
  }

  private Answer rank(byte[] body) {
    JsonRequests.RankRequest r = JsonRequests.rank(body, predictor.newestTime());
    Ranking ranking;
    try {
      ranking = predictor.rank(r.source(), r.candidates(), r.time(), r.k());
    } catch (RejectedInputException e) {
      throw new BadRequestException("request: \"" + e.field() + "\": " + e.problem(), e);
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("version", ranking.version());
    ArrayNode a = o.putArray("ranking");
    for (RankedNode n : ranking.top()) {
      a.addObject().put("node", n.node()).put("score", n.score());
    }
    return Answer.json(200, o);
  }

  private Answer health() {
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("status", "ok");
    o.put("model", predictor.modelName());
    o.put("version", predictor.version());
    o.put("observedEvents", predictor.observedEvents());
    o.put("nodes", predictor.nodeCount());
    o.put("newNodes", predictor.newNodeCount());
    o.put("newestTime", predictor.newestTime());
    return Answer.json(200, o);
  }

  private Answer snapshot() {
    if (options.snapshot() == null) {
      return Answer.error(409, "this server has no snapshot file configured (--snapshot)");
    }
    long version = predictor.snapshot(options.snapshot());
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("path", options.snapshot().toString());
    o.put("version", version);
    try {
      o.put("bytes", Files.size(options.snapshot()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Answer.json(200, o);
  }

  private static byte[] body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      if (body.length > MAX_BODY_BYTES) {
        throw new BodyTooLargeException(
            "request body over " + (MAX_BODY_BYTES >> 20) + " MiB; send the events in parts");
      }
      return body;
    }
  }

  private static String query(HttpExchange exchange, String name) {
    String q = exchange.getRequestURI().getQuery();
    if (q == null) {
      return null;
    }
    for (String part : q.split("&")) {
      String[] kv = part.split("=", 2);
      if (kv[0].equals(name)) {
        return kv.length > 1 ? kv[1] : "";
      }
    }
    return null;
  }

  /** A body over {@link #MAX_BODY_BYTES}. */
  private static final class BodyTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException(String message) {
      super(message);
    }
  }

  /**
   * Stops accepting requests, lets those in flight finish, then writes the snapshot (if one is
   * configured). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.drainSeconds());
    synchronized (flight) {
      closing = true;
      try {
        for (long left = deadline - System.nanoTime();
            inFlight > 0 && left > 0;
            left = deadline - System.nanoTime()) {
          TimeUnit.NANOSECONDS.timedWait(flight, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    http.stop(0);
    handlers.shutdown();
    if (options.snapshot() != null) {
      predictor.snapshot(options.snapshot());
    }
  }
}
