package dev.depbloom.serve;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.api.Interaction;
import dev.depbloom.api.LinkQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The JSON the server reads, checked as the loaders check files: one error, naming the line (and,
 * in an array, the event) and the field, and what was expected; unknown fields are errors. Events
 * come as JSON lines (one object a line) or as one array of objects.
 */
final class JsonRequests {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> EVENT_FIELDS = Set.of("src", "dst", "time", "features");
  private static final Set<String> PAIR_FIELDS = Set.of("src", "dst", "time");
  private static final Set<String> RANK_FIELDS = Set.of("src", "candidates", "time", "k");

  private JsonRequests() {}

  /** Events of a {@code POST /events} body, with where each was. */
  record Events(List<Interaction> events, List<String> places) {}

  /** The events of {@code body}: JSON lines, or one array; at least one. */
  static Events events(byte[] body) {
    List<Interaction> events = new ArrayList<>();
    List<String> places = new ArrayList<>();
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      JsonToken t = p.nextToken();
      boolean array = t == JsonToken.START_ARRAY;
      if (array) {
        t = p.nextToken();
      }
      while (t != null && t != JsonToken.END_ARRAY) {
        String place = "line " + p.currentTokenLocation().getLineNr();
        if (array) {
          place += ", event " + (events.size() + 1);
        }
        if (t != JsonToken.START_OBJECT) {
          throw new BadRequestException(
              place + ": expected an object {\"src\": ..., \"dst\": ..., \"time\": ...}");
        }
        JsonNode node = JSON.readTree(p);
        events.add(event(node, place));
        places.add(place);
        t = p.nextToken();
      }
      if (array && (t == null || p.nextToken() != null)) {
        throw new BadRequestException(
            "line " + p.currentTokenLocation().getLineNr() + ": expected the array to end");
      }
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (IOException e) {
      throw new BadRequestException("unreadable request body: " + e.getMessage(), e);
    }
    if (events.isEmpty()) {
      throw new BadRequestException("no events: expected JSON lines or an array of events");
    }
    return new Events(events, places);
  }

  private static Interaction event(JsonNode node, String place) {
    checkFields(node, EVENT_FIELDS, place);
    long src = id(node, "src", place);
    long dst = id(node, "dst", place);
    double time = number(node, "time", place, null);
    float[] features = null;
    JsonNode f = node.get("features");
    if (f != null && !f.isNull()) {
      if (!f.isArray()) {
        throw field(place, "features", "expected an array of numbers, got " + f);
      }
      features = new float[f.size()];
      for (int j = 0; j < features.length; j++) {
        if (!f.get(j).isNumber()) {
          throw field(place, "features", "value " + j + " is " + f.get(j) + ", expected a number");
        }
        features[j] = (float) f.get(j).asDouble();
      }
    }
    return new Interaction(src, dst, time, features);
  }

  /** Pairs of a {@code POST /score} body: {@code {"pairs": [...]}} or one pair. */
  static List<LinkQuery> pairs(byte[] body, double defaultTime) {
    JsonNode root = object(body);
    List<LinkQuery> out = new ArrayList<>();
    if (root.has("pairs")) {
      checkFields(root, Set.of("pairs"), "request");
      JsonNode pairs = root.get("pairs");
      if (!pairs.isArray() || pairs.isEmpty()) {
        throw field(
            "request", "pairs", "expected a non-empty array of {\"src\", \"dst\", \"time\"}");
      }
      for (int i = 0; i < pairs.size(); i++) {
        out.add(pair(pairs.get(i), "pairs[" + i + "]", defaultTime));
      }
    } else {
      out.add(pair(root, "request", defaultTime));
    }
    return out;
  }

  private static LinkQuery pair(JsonNode node, String place, double defaultTime) {
    if (!node.isObject()) {
      throw new BadRequestException(place + ": expected an object {\"src\", \"dst\", \"time\"}");
    }
    checkFields(node, PAIR_FIELDS, place);
    return new LinkQuery(
        id(node, "src", place), id(node, "dst", place), number(node, "time", place, defaultTime));
  }

  /** A {@code POST /rank} body. */
  record RankRequest(long source, long[] candidates, double time, int k) {}

  static RankRequest rank(byte[] body, double defaultTime) {
    JsonNode root = object(body);
    checkFields(root, RANK_FIELDS, "request");
    JsonNode c = root.get("candidates");
    if (c == null || !c.isArray() || c.isEmpty()) {
      throw field("request", "candidates", "expected a non-empty array of node ids");
    }
    long[] candidates = new long[c.size()];
    for (int j = 0; j < candidates.length; j++) {
      if (!c.get(j).canConvertToLong() || !c.get(j).isIntegralNumber()) {
        throw field(
            "request", "candidates", "entry " + j + " is " + c.get(j) + ", expected a node id");
      }
      candidates[j] = c.get(j).asLong();
    }
    double k = number(root, "k", "request", 10.0);
    if (k != Math.rint(k) || k < 1 || k > Integer.MAX_VALUE) {
      throw field("request", "k", "expected a whole number >= 1, got " + root.get("k"));
    }
    return new RankRequest(
        id(root, "src", "request"),
        candidates,
        number(root, "time", "request", defaultTime),
        (int) k);
  }

  private static JsonNode object(byte[] body) {
    try {
      JsonNode root = JSON.readTree(body);
      if (root == null || !root.isObject()) {
        throw new BadRequestException("line 1: expected a JSON object");
      }
      return root;
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (IOException e) {
      throw new BadRequestException("unreadable request body: " + e.getMessage(), e);
    }
  }

  private static void checkFields(JsonNode node, Set<String> allowed, String place) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw new BadRequestException(
            place
                + ": unknown field \""
                + name
                + "\" (expected "
                + String.join(", ", allowed.stream().sorted().toList())
                + ")");
      }
    }
  }

  private static long id(JsonNode node, String name, String place) {
    JsonNode v = node.get(name);
    if (v == null || v.isNull()) {
      throw field(place, name, "missing (expected a node id)");
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw field(place, name, "expected an integer node id, got " + v);
    }
    return v.asLong();
  }

  /** A number field; {@code fallback} when absent (null: required). */
  private static double number(JsonNode node, String name, String place, Double fallback) {
    JsonNode v = node.get(name);
    if (v == null || v.isNull()) {
      if (fallback == null) {
        throw field(place, name, "missing (expected a number)");
      }
      return fallback;
    }
    if (!v.isNumber()) {
      throw field(place, name, "expected a number, got " + v);
    }
    return v.asDouble();
  }

  private static BadRequestException field(String place, String name, String problem) {
    return new BadRequestException(place + ": \"" + name + "\": " + problem);
  }

  private static BadRequestException malformed(JsonProcessingException e) {
    var at = e.getLocation();
    String where = at == null ? "" : "line " + at.getLineNr() + ": ";
    return new BadRequestException(where + "malformed JSON (" + e.getOriginalMessage() + ")", e);
  }
}
