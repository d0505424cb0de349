package dev.depbloom.serve;

import dev.depbloom.api.TemporalLinkPredictor;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's metrics in Prometheus's text format (0.0.4), written by hand: requests by endpoint
 * and status, a latency histogram per endpoint with fixed buckets, and, read from the predictor at
 * each scrape, events observed, the memory version and the nodes.
 */
final class ServerMetrics {
  /** Upper bounds of the latency buckets, seconds. */
  static final double[] BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>(); // "endpoint|status"
  private final Map<String, Histogram> latency = new ConcurrentHashMap<>();

  /** One endpoint's latencies: counts per bucket (the last for +Inf) and their sum. */
  private static final class Histogram {
    final AtomicLongArray counts = new AtomicLongArray(BUCKETS.length + 1);
    final DoubleAdder sum = new DoubleAdder();

    void add(double seconds) {
      int b = 0;
      while (b < BUCKETS.length && seconds > BUCKETS[b]) {
        b++;
      }
      counts.incrementAndGet(b);
      sum.add(seconds);
    }
  }

  /** Records a request to {@code endpoint} answered with {@code status} after {@code seconds}. */
  void record(String endpoint, int status, double seconds) {
    requests.computeIfAbsent(endpoint + "|" + status, k -> new LongAdder()).increment();
    latency.computeIfAbsent(endpoint, k -> new Histogram()).add(seconds);
  }

  /** The text a scrape gets. */
  String scrape(TemporalLinkPredictor predictor) {
    StringBuilder out = new StringBuilder();
    out.append("# HELP depbloom_requests_total HTTP requests by endpoint and status.\n");
    out.append("# TYPE depbloom_requests_total counter\n");
    requests.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              String[] k = e.getKey().split("\\|");
              out.append("depbloom_requests_total{endpoint=\"")
                  .append(k[0])
                  .append("\",status=\"")
                  .append(k[1])
                  .append("\"} ")
                  .append(e.getValue().sum())
                  .append('\n');
            });
    out.append(
        "# HELP depbloom_request_seconds Time from a request's arrival to its answer being ready.\n");
    out.append("# TYPE depbloom_request_seconds histogram\n");
    latency.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> histogram(out, e.getKey(), e.getValue()));
    gauge(
        out,
        "depbloom_events_observed_total",
        "counter",
        "Events observed since the server started.",
        predictor.observedEvents());
    gauge(
        out,
        "depbloom_memory_version",
        "gauge",
        "Memory version readers see: event batches observed since load or restore.",
        predictor.version());
    gauge(out, "depbloom_nodes", "gauge", "Nodes known.", predictor.nodeCount());
    gauge(
        out,
        "depbloom_new_nodes",
        "gauge",
        "Nodes observed events added.",
        predictor.newNodeCount());
    gauge(
        out,
        "depbloom_refused_node_ids_total",
        "counter",
        "Event calls refused for a node id outside the id space or beyond the new-node limit.",
        predictor.refusedNodeIds());
    gauge(
        out,
        "depbloom_new_nodes_limit",
        "gauge",
        "New nodes allowed (--max-new-nodes).",
        predictor.maxNewNodes());
    return out.toString();
  }

  private static void histogram(StringBuilder out, String endpoint, Histogram h) {
    long cumulative = 0;
    for (int b = 0; b <= BUCKETS.length; b++) {
      cumulative += h.counts.get(b);
      String le = b < BUCKETS.length ? number(BUCKETS[b]) : "+Inf";
      out.append("depbloom_request_seconds_bucket{endpoint=\"")
          .append(endpoint)
          .append("\",le=\"")
          .append(le)
          .append("\"} ")
          .append(cumulative)
          .append('\n');
    }
    out.append("depbloom_request_seconds_sum{endpoint=\"")
        .append(endpoint)
        .append("\"} ")
        .append(number(h.sum.sum()))
        .append('\n');
    out.append("depbloom_request_seconds_count{endpoint=\"")
        .append(endpoint)
        .append("\"} ")
        .append(cumulative) // the +Inf bucket: consistent with the buckets of this scrape
        .append('\n');
  }

  private static void gauge(StringBuilder out, String name, String type, String help, long value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    out.append(name).append(' ').append(value).append('\n');
  }

  private static String number(double v) {
    return String.format(Locale.ROOT, "%s", v);
  }
}
