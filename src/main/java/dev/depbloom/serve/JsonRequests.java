package dev.depbloom.serve;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.api.Interaction;
import dev.depbloom.api.LinkQuery;
import dev.depbloom.api.TemporalLinkPredictor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The JSON the server reads, checked as the loaders check files: one error, naming the line (and,
 * in an array, the event) and the field, and what was expected; unknown fields are errors. Strict:
 * a body holds one JSON value ({@code /score}, {@code /rank}) or one event a line ({@code /events},
 * JSON lines) or one array of events, and nothing after it. Counts over a limit are refused (413)
 * as soon as they are seen. Errors are said in the project's words, never the parser's.
 */
final class JsonRequests {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> EVENT_FIELDS = Set.of("src", "dst", "time", "features");
  private static final Set<String> PAIR_FIELDS = Set.of("src", "dst", "time");
  private static final Set<String> RANK_FIELDS = Set.of("src", "candidates", "time", "k");

  private JsonRequests() {}

  /** Events of a {@code POST /events} body, with where each was. */
  record Events(List<Interaction> events, List<String> places) {}

  /** The events of {@code body}: JSON lines, or one array; at least one, at most {@code max}. */
  static Events events(byte[] body, int max) {
    List<Interaction> events = new ArrayList<>();
    List<String> places = new ArrayList<>();
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      JsonToken t = p.nextToken();
      boolean array = t == JsonToken.START_ARRAY;
      if (array) {
        t = p.nextToken();
      }
      int lastLine = 0; // the line the previous event ended on (JSON lines: one event a line)
      while (t != null && t != JsonToken.END_ARRAY) {
        int line = p.currentTokenLocation().getLineNr();
        String place = "line " + line;
        if (array) {
          place += ", event " + (events.size() + 1);
        } else if (line == lastLine) {
          throw new BadRequestException(
              place + ": a second JSON value on the line (JSON lines: one event a line)");
        }
        if (t != JsonToken.START_OBJECT) {
          throw new BadRequestException(
              place + ": expected an object {\"src\": ..., \"dst\": ..., \"time\": ...}");
        }
        if (events.size() == max) {
          throw new RequestRefusedException(
              413,
              "more than "
                  + Endpoints.count(max)
                  + " events in one request, the limit (--max-events); send them in parts");
        }
        JsonNode node = JSON.readTree(p);
        events.add(event(node, place));
        places.add(place);
        lastLine = p.currentLocation().getLineNr();
        t = p.nextToken();
      }
      if (array && (t == null || moreAfter(p))) {
        throw new BadRequestException(
            "line "
                + p.currentTokenLocation().getLineNr()
                + ": expected the array to end, and nothing after it");
      }
    } catch (JsonProcessingException e) {
      throw malformed(e, body);
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

  /** The pairs of a {@code POST /score} body, and whether it was one pair rather than a list. */
  record Pairs(List<LinkQuery> queries, boolean single) {}

  /**
   * Pairs of a {@code POST /score} body: {@code {"pairs": [...]}} (at most {@code max}) or one
   * pair. A pair without {@code time} reads at the newest observed event ({@link
   * TemporalLinkPredictor#NEWEST}).
   */
  static Pairs pairs(byte[] body, int max) {
    JsonNode root = object(body);
    List<LinkQuery> out = new ArrayList<>();
    if (!root.has("pairs")) {
      out.add(pair(root, "request"));
      return new Pairs(out, true);
    }
    checkFields(root, Set.of("pairs"), "request");
    JsonNode pairs = root.get("pairs");
    if (!pairs.isArray() || pairs.isEmpty()) {
      throw field("request", "pairs", "expected a non-empty array of {\"src\", \"dst\", \"time\"}");
    }
    if (pairs.size() > max) {
      throw overLimit("pairs", pairs.size(), max, "--max-pairs", "send them in parts");
    }
    for (int i = 0; i < pairs.size(); i++) {
      out.add(pair(pairs.get(i), "pairs[" + i + "]"));
    }
    return new Pairs(out, false);
  }

  private static LinkQuery pair(JsonNode node, String place) {
    if (!node.isObject()) {
      throw new BadRequestException(place + ": expected an object {\"src\", \"dst\", \"time\"}");
    }
    checkFields(node, PAIR_FIELDS, place);
    return new LinkQuery(
        id(node, "src", place),
        id(node, "dst", place),
        number(node, "time", place, TemporalLinkPredictor.NEWEST));
  }

  /** A {@code POST /rank} body. */
  record RankRequest(long source, long[] candidates, double time, int k) {}

  /** A {@code POST /rank} body, at most {@code max} candidates. */
  static RankRequest rank(byte[] body, int max) {
    JsonNode root = object(body);
    checkFields(root, RANK_FIELDS, "request");
    JsonNode c = root.get("candidates");
    if (c == null || !c.isArray() || c.isEmpty()) {
      throw field("request", "candidates", "expected a non-empty array of node ids");
    }
    if (c.size() > max) {
      throw overLimit("candidates", c.size(), max, "--max-candidates", "rank them in parts");
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
        number(root, "time", "request", TemporalLinkPredictor.NEWEST),
        (int) k);
  }

  /** 413 for {@code count} entries of list {@code field}, over {@code max} set by {@code flag}. */
  private static RequestRefusedException overLimit(
      String field, int count, int max, String flag, String advice) {
    return new RequestRefusedException(
        413,
        String.format(
            "request: \"%s\": %s %s, more than the limit of %s (%s); %s",
            field, Endpoints.count(count), field, Endpoints.count(max), flag, advice));
  }

  /** The one JSON object of {@code body}; anything after it is refused. */
  private static JsonNode object(byte[] body) {
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      JsonToken t = p.nextToken();
      if (t != JsonToken.START_OBJECT) {
        throw new BadRequestException(
            t == null
                ? "empty request body: expected a JSON object"
                : "line 1: expected a JSON object");
      }
      JsonNode root = JSON.readTree(p);
      if (moreAfter(p)) {
        JsonLocation at = p.currentTokenLocation();
        throw new BadRequestException(
            "line "
                + at.getLineNr()
                + ", column "
                + at.getColumnNr()
                + ": more after the JSON object (a request is one object)");
      }
      return root;
    } catch (JsonProcessingException e) {
      throw malformed(e, body);
    } catch (IOException e) {
      throw new BadRequestException("unreadable request body: " + e.getMessage(), e);
    }
  }

  /** Whether anything but white space follows the value just read (garbage counts too). */
  private static boolean moreAfter(JsonParser p) throws IOException {
    try {
      return p.nextToken() != null;
    } catch (JsonProcessingException e) {
      return true;
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

  /**
   * Malformed JSON, said with its line and column and the character found there (the parser's own
   * message names its internals and switches a client cannot set).
   */
  private static BadRequestException malformed(JsonProcessingException e, byte[] body) {
    JsonLocation at = e.getLocation();
    String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr();
    String what;
    if (e instanceof JsonEOFException) {
      what = "the JSON ends before its value is complete";
    } else {
      int offset = at == null ? -1 : offset(body, at.getLineNr(), at.getColumnNr());
      what =
          "not valid JSON"
              + (offset >= 0 ? " where it reads " + excerpt(body, offset) : "")
              + " (expected an object, array, string, number, true, false or null; strings in"
              + " double quotes, numbers without NaN or Infinity)";
    }
    return new BadRequestException((where.isEmpty() ? "" : where + ": ") + what, e);
  }

  /** The index in {@code body} of 1-based {@code line} and {@code column}, or -1. */
  private static int offset(byte[] body, int line, int column) {
    int at = 0;
    for (int l = 1; l < line && at < body.length; at++) {
      if (body[at] == '\n') {
        l++;
      }
    }
    int i = at + column - 1;
    return line >= 1 && column >= 1 && i < body.length ? i : -1;
  }

  /**
   * The body's text just before and at {@code offset} (the parser stops after a token it cannot
   * take, e.g. after {@code NaN}), quoted, as one line.
   */
  private static String excerpt(byte[] body, int offset) {
    int from = Math.max(0, offset - 12);
    StringBuilder b = new StringBuilder();
    for (int i = from; i <= Math.min(offset, body.length - 1); i++) {
      char c = (char) (body[i] & 0xff);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return "\"" + (from > 0 ? "..." : "") + b + "\"";
  }
}
