package dev.depbloom.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * One measured row: what, how big, how many timed calls, wall-clock latency quantiles, the calling
 * thread's CPU time quantiles (NaN where the work is not on the calling thread), throughput.
 */
public record ServeRow(
    String operation,
    int size,
    int calls,
    double p50Ms,
    double p99Ms,
    double cpuP50Ms,
    double cpuP99Ms,
    double rate) {
  /** The row as a markdown table row; {@code unit} names the throughput's unit. */
  String markdown(String unit) {
    return String.format(
        Locale.ROOT,
        "| %s | %,d | %,d | %.2f | %.2f | %s | %s | %,.0f %s |",
        operation,
        size,
        calls,
        p50Ms,
        p99Ms,
        cpu(cpuP50Ms),
        cpu(cpuP99Ms),
        rate,
        unit);
  }

  private static String cpu(double ms) {
    return Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%.2f", ms);
  }

  /** Latency quantiles and throughput (size per second of the mean call) of timed calls. */
  static ServeRow of(String operation, int size, long[] nanos) {
    return of(operation, size, nanos, null);
  }

  /** As above, with the calls' CPU times (or null). */
  static ServeRow of(String operation, int size, long[] nanos, long[] cpuNanos) {
    if (nanos.length == 0) { // too few test events for a call of this size
      return new ServeRow(operation, size, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
    }
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElse(Double.NaN);
    long[] cpu = cpuNanos == null ? null : cpuNanos.clone();
    if (cpu != null) {
      Arrays.sort(cpu);
    }
    return new ServeRow(
        operation,
        size,
        sorted.length,
        quantile(sorted, 0.50) / 1e6,
        quantile(sorted, 0.99) / 1e6,
        cpu == null ? Double.NaN : quantile(cpu, 0.50) / 1e6,
        cpu == null ? Double.NaN : quantile(cpu, 0.99) / 1e6,
        size / (mean / 1e9));
  }

  /** The nearest-rank quantile of sorted values. */
  static double quantile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
