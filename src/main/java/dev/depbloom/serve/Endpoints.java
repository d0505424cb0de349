package dev.depbloom.serve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.api.EventScores;
import dev.depbloom.api.RankedNode;
import dev.depbloom.api.Ranking;
import dev.depbloom.api.RejectedInputException;
import dev.depbloom.api.ScoredLinks;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.api.UnscorableQueryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What each endpoint answers, from a request's body: the JSON in ({@link JsonRequests}), the
 * predictor's call, the JSON out. A refusal of the predictor's is said with the place of the item
 * in the body (the line and event, {@code pairs[i]}, or {@code request} for a single pair).
 */
final class Endpoints {
  /** The endpoints and the method each takes ({@code HEAD} too where it is {@code GET}). */
  enum Endpoint {
    EVENTS("/events", "POST", true),
    SCORE("/score", "POST", true),
    RANK("/rank", "POST", true),
    SNAPSHOT("/snapshot", "POST", true),
    HEALTH("/health", "GET", false),
    METRICS("/metrics", "GET", false);

    final String path;
    final String method;
    final boolean model; // answered by a model worker, not on the server's own threads

    Endpoint(String path, String method, boolean model) {
      this.path = path;
      this.method = method;
      this.model = model;
    }

    static Endpoint of(String path) {
      for (Endpoint e : values()) {
        if (e.path.equals(path)) {
          return e;
        }
      }
      return null;
    }

    boolean takes(String requestMethod) {
      return method.equals(requestMethod) || (method.equals("GET") && requestMethod.equals("HEAD"));
    }
  }

  private final TemporalLinkPredictor predictor;
  private final ServerLimits limits;
  private final Path snapshot;
  private final ServerMetrics metrics;

  Endpoints(
      TemporalLinkPredictor predictor, ServerLimits limits, Path snapshot, ServerMetrics metrics) {
    this.predictor = predictor;
    this.limits = limits;
    this.snapshot = snapshot;
    this.metrics = metrics;
  }

  /** Bytes a body to {@code e} may have. */
  int bodyLimit(Endpoint e) {
    return e == Endpoint.EVENTS ? limits.eventBodyBytes() : limits.queryBodyBytes();
  }

  /** The answer of {@code e} to {@code body}; refusals are thrown. */
  Answer answer(Endpoint e, byte[] body, boolean scoreEvents) {
    return switch (e) {
      case EVENTS -> events(body, scoreEvents);
      case SCORE -> score(body);
      case RANK -> rank(body);
      case SNAPSHOT -> snapshot();
      case HEALTH -> health();
      case METRICS ->
          new Answer(
              200,
              "text/plain; version=0.0.4; charset=utf-8",
              metrics.scrape(predictor).getBytes(StandardCharsets.UTF_8));
    };
  }

  private Answer events(byte[] body, boolean score) {
    JsonRequests.Events parsed = JsonRequests.events(body, limits.maxEvents());
    EventScores scores;
    try {
      scores =
          score
              ? predictor.scoreThenObserve(parsed.events(), null)
              : new EventScores(predictor.observe(parsed.events()), null, null);
    } catch (RejectedInputException x) {
      String place =
          x.index() >= 0 && x.index() < parsed.places().size()
              ? parsed.places().get(x.index())
              : "request";
      throw refusal(place, x);
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("observed", parsed.events().size());
    o.put("version", scores.version());
    o.put("nodes", predictor.nodeCount());
    o.put("newNodes", predictor.newNodeCount());
    if (score) {
      scores(o.putArray("scores"), scores.scores());
    }
    return Answer.json(200, o);
  }

  private Answer score(byte[] body) {
    JsonRequests.Pairs pairs = JsonRequests.pairs(body, limits.maxPairs());
    ScoredLinks s;
    try {
      s = predictor.score(pairs.queries());
    } catch (RejectedInputException x) {
      String place = pairs.single() || x.index() < 0 ? "request" : "pairs[" + x.index() + "]";
      throw refusal(place, x);
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("version", s.version());
    scores(o.putArray("scores"), s.scores());
    return Answer.json(200, o);
  }

  private Answer rank(byte[] body) {
    JsonRequests.RankRequest r = JsonRequests.rank(body, limits.maxCandidates());
    Ranking ranking;
    try {
      ranking = predictor.rank(r.source(), r.candidates(), r.time(), r.k());
    } catch (RejectedInputException x) {
      String place = x.index() < 0 ? "request" : "candidates[" + x.index() + "]";
      throw refusal(place, x);
    }
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("version", ranking.version());
    ArrayNode a = o.putArray("ranking");
    for (RankedNode n : ranking.top()) {
      a.addObject().put("node", n.node()).put("score", n.score());
    }
    return Answer.json(200, o);
  }

  private static RuntimeException refusal(String place, RejectedInputException x) {
    String message = place + ": \"" + x.field() + "\": " + x.problem();
    return x instanceof UnscorableQueryException
        ? new RequestRefusedException(422, message)
        : new BadRequestException(message, x);
  }

  private static void scores(ArrayNode a, float[] scores) {
    for (float s : scores) {
      a.add(s); // finite: the predictor refuses a pair it cannot score
    }
  }

  private Answer health() {
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("status", "ok");
    o.put("model", predictor.modelName());
    o.put("version", predictor.version());
    o.put("observedEvents", predictor.observedEvents());
    o.put("nodes", predictor.nodeCount());
    o.put("newNodes", predictor.newNodeCount());
    o.put("maxNewNodes", predictor.maxNewNodes());
    o.put("newestTime", predictor.newestTime());
    o.put("timeHorizon", predictor.timeHorizon());
    o.put("idBound", predictor.idBound());
    return Answer.json(200, o);
  }

  private Answer snapshot() {
    if (snapshot == null) {
      return Answer.error(409, "this server has no snapshot file configured (--snapshot)");
    }
    long version = predictor.snapshot(snapshot);
    ObjectNode o = JsonRequests.JSON.createObjectNode();
    o.put("path", snapshot.toString());
    o.put("version", version);
    try {
      o.put("bytes", Files.size(snapshot));
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
    return Answer.json(200, o);
  }

  /** {@code "1,000,000"}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** The paths the server answers, for a 404's message. */
  static String paths() {
    return String.join(
        ", ", List.of(Endpoint.values()).stream().map(e -> e.method + " " + e.path).toList());
  }
}
