package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.RunSummary;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code train} and {@code evaluate} say of a run: its start line, and the final summary as a
 * JSON object or a table.
 */
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

  /**
   * The run's first line on standard error: who trains ({@code who}: the process, of several),
   * what, on which data and split, under which schedule and threads, into which folder; and a note
   * when the validation split is empty.
   */
  static void printStart(
      PrintWriter err, String who, TrainingRun run, Schedule schedule, RunDirectory dir) {
    err.printf(
        "depbloom: %s%s on %s: %,d events, %,d nodes%s, split %,d/%,d/%,d; schedule %s on %d"
            + " logical device(s), threads %s; output %s%n",
        who,
        run.config().name(),
        run.dataSource(),
        run.events().eventCount(),
        run.events().nodeCount(),
        run.events().bipartite() ? " (bipartite)" : "",
        run.split().trainCount(),
        run.split().valCount(),
        run.split().testCount(),
        schedule.describe(),
        schedule.devices(),
        run.threads(),
        dir == null ? "(rank 0's)" : dir.root());
    if (run.split().valCount() == 0) {
      err.printf(
          "depbloom: note: the validation split is empty, so validation AP is undefined (NaN)"
              + " and the last epoch is the one tested%n");
    }
  }
}
