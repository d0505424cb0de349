package dev.depbloom.cli;

import dev.depbloom.bench.ServeBenchmark;
import dev.depbloom.data.InputException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code depbloom bench serve RUN_DIR}: latency and throughput of a served run. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Times a trained run served through the Java API: score for 1, 100 and 1,000 pairs,"
          + " observe for batches of 1, 100 and 600 of the run's test events, and the events"
          + " observed per second while another thread scores single pairs; prints a markdown"
          + " table. No files are written.",
      ""
    })
final class ServeBenchCommand implements Callable<Integer> {
  @Parameters(paramLabel = "RUN_DIR", description = "Output folder of a finished training run.")
  Path dir;

  @Option(
      names = "--repeats",
      defaultValue = "2000",
      paramLabel = "N",
      description =
          "Timed single-pair scores (larger calls are timed N / size times, at least 20).")
  int repeats;

  @Option(names = "--http", description = "Also time a single pair's score over HTTP (loopback).")
  boolean http;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (repeats < 1) {
      throw new InputException("--repeats " + repeats + ": expected at least 1");
    }
    ServeBenchmark.Result r = new ServeBenchmark(dir, repeats, http).run();
    PrintWriter out = spec.commandLine().getOut();
    out.print(r.markdown());
    out.flush();
    return 0;
  }
}
