package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.bench.SamplerBenchmark;
import dev.depbloom.bench.SamplerBenchmark.Measurement;
import dev.depbloom.data.InputException;
import dev.depbloom.data.load.LoadOptions;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code depbloom bench sampler}: neighbor sampling throughput, see {@link SamplerBenchmark}. */
@Command(
    name = "sampler",
    mixinStandardHelpOptions = true,
    description = {
      "Samples the Wikipedia training events in batches of 600 in time order, roots"
          + " [src|dst|neg]: (a) 1-layer recent, fanout 10; (b) 2-layer uniform [10, 10]."
          + " Reports sampled neighbors per second (median, min and max over the measured passes)."
    })
final class SamplerBenchCommand implements Runnable {
  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--threads",
      paramLabel = "T",
      defaultValue = "2",
      description = "Sampling threads, the caller's included (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = "--data",
      paramLabel = "PATH",
      description =
          "Data set in any format the loaders read (default: the embedded Wikipedia stream).")
  String data;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "2",
      description = "Unmeasured passes first (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--passes",
      paramLabel = "P",
      defaultValue = "5",
      description = "Measured passes (default: ${DEFAULT-VALUE}).")
  int passes;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "0",
      description = "Seed of negatives and uniform draws (default: ${DEFAULT-VALUE}).")
  long seed;

  /** The one JSON object of {@code --json}. */
  record JsonReport(
      long recentNeighborsPerSecond,
      long uniformNeighborsPerSecond,
      int threads,
      String data,
      int trainEvents,
      int batches,
      int batchSize,
      int warmupPasses,
      Measurement recent,
      Measurement uniform) {}

  @Override
  public void run() {
    if (threads < 1 || passes < 1 || warmup < 0) {
      throw new InputException("--threads and --passes must be at least 1, --warmup at least 0");
    }
    String path = data != null ? data : RunSetup.EMBEDDED;
    SamplerBenchmark bench =
        new SamplerBenchmark(RunSetup.loadData(data, LoadOptions.defaults(), null), seed);
    PrintWriter out = spec.commandLine().getOut();
    if (!output.json) {
      printHeader(out, path, bench);
    }
    Measurement recent = bench.measureRecent(threads, warmup, passes);
    if (!output.json) {
      printRow(out, recent);
    }
    Measurement uniform = bench.measureUniform(threads, warmup, passes);
    if (!output.json) {
      printRow(out, uniform);
    } else {
      printJson(out, path, bench, recent, uniform);
    }
    out.flush();
  }

  private void printHeader(PrintWriter out, String path, SamplerBenchmark bench) {
    out.printf(
        "sampler benchmark: %s, %,d training events in %d batches of %d, roots [src|dst|neg],"
            + " %d thread(s), %d warm-up + %d measured passes%n",
        path,
        bench.trainEvents(),
        bench.batchCount(),
        SamplerBenchmark.BATCH_SIZE,
        threads,
        warmup,
        passes);
    out.printf(
        "%-8s %-9s %15s %18s %18s %18s%n",
        "strategy", "fanouts", "neighbors/pass", "median n/s", "min n/s", "max n/s");
    out.flush();
  }

  private static void printRow(PrintWriter out, Measurement m) {
    out.printf(
        "%-8s %-9s %,15d %,18d %,18d %,18d%n",
        m.strategy(),
        m.fanouts().toString().replace(" ", ""),
        m.neighborsPerPass(),
        m.medianPerSecond(),
        m.minPerSecond(),
        m.maxPerSecond());
    out.flush();
  }

  private void printJson(
      PrintWriter out,
      String path,
      SamplerBenchmark bench,
      Measurement recent,
      Measurement uniform) {
    JsonReport report =
        new JsonReport(
            recent.medianPerSecond(),
            uniform.medianPerSecond(),
            threads,
            path,
            bench.trainEvents(),
            bench.batchCount(),
            SamplerBenchmark.BATCH_SIZE,
            warmup,
            recent,
            uniform);
    try {
      out.println(new ObjectMapper().writeValueAsString(report));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the report as JSON", e);
    }
  }
}
