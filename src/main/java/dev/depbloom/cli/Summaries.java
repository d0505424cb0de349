package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.RunSummary;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The final summary of {@code train} and {@code evaluate}: as a JSON object or a table. */
final class Summaries {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Summaries() {}

  static Map<String, Object> of(RunSummary s, RunDirectory dir) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("epochs", s.epochs().size());
    m.put("valAp", s.lastValAp());
    m.put("bestValAp", s.bestValAp());
    m.put("bestEpoch", s.bestEpoch());
    m.putAll(test(s.test()));
    m.put("trainEventsPerSecond", s.trainEventsPerSecond());
    m.put("out", dir.root().toString());
    return m;
  }

  /** The test metrics under both protocols ({@code testMrr*} null when MRR is skipped). */
  static Map<String, Object> test(TestMetrics t) {
    return new LinkedHashMap<>(t.metrics());
  }

  static String json(Map<String, Object> m) {
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String table(Map<String, Object> m) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      Object v = e.getValue();
      String value =
          v instanceof Double d
              ? String.format(Locale.ROOT, "%.4f", d)
              : v == null ? "-" : String.valueOf(v);
      b.append(String.format(Locale.ROOT, "%-22s %s%n", e.getKey(), value));
    }
    return b.toString();
  }
}
