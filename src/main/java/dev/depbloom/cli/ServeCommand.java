package dev.depbloom.cli;

import dev.depbloom.api.PredictorOptions;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.InputException;
import dev.depbloom.serve.PredictionServer;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code depbloom serve RUN_DIR}: a trained run behind HTTP with JSON ({@link PredictionServer}),
 * its memory kept current as events arrive. Stops on SIGINT or SIGTERM, gracefully: requests in
 * flight finish, then a snapshot is written, which the next start continues from.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves a trained run's best checkpoint over HTTP: POST /events keeps the model's memory"
          + " current, POST /score and POST /rank answer link probabilities, GET /health and GET"
          + " /metrics (Prometheus) report, POST /snapshot saves the state. On SIGINT or SIGTERM"
          + " it writes a snapshot, and the next start continues from it. See docs/serving.md.",
      ""
    })
final class ServeCommand implements Callable<Integer> {
  @Parameters(paramLabel = "RUN_DIR", description = "Output folder of a finished training run.")
  Path dir;

  @Option(names = "--port", paramLabel = "P", description = "Port (default: ${DEFAULT-VALUE}).")
  int port = 8080;

  @Option(
      names = "--host",
      paramLabel = "H",
      description =
          "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; 0.0.0.0: all).")
  String host = "127.0.0.1";

  @Option(
      names = "--snapshot",
      paramLabel = "FILE",
      description =
          "Snapshot file: restored at start when it exists, written by POST /snapshot and at"
              + " shutdown (default: RUN_DIR/serving/snapshot.bin).")
  Path snapshot;

  @Option(
      names = "--fresh",
      description =
          "Start from the checkpoint even when the snapshot file exists (it is replaced).")
  boolean fresh;

  @Option(
      names = "--max-new-nodes",
      paramLabel = "M",
      description =
          "Node ids the run's data lacks that events may add; their memory is reserved at start"
              + " (default: ${DEFAULT-VALUE}).")
  int maxNewNodes = PredictorOptions.DEFAULT_MAX_NEW_NODES;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Request handler threads (default: the cores).")
  Integer threads;

  @Option(
      names = "--data",
      paramLabel = "PATH",
      description = "The run's data set, if it has moved (it must be the same events).")
  String data;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    Path file = snapshot != null ? snapshot : dir.resolve("serving").resolve("snapshot.bin");
    PredictorOptions options =
        PredictorOptions.defaults().withMaxNewNodes(maxNewNodes).withData(data);
    boolean restore = !fresh && Files.isRegularFile(file);
    if (restore) {
      options = options.withSnapshot(file);
    }
    TemporalLinkPredictor predictor = TemporalLinkPredictor.load(dir, options);
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    PredictionServer server;
    try {
      server =
          PredictionServer.start(
              predictor, new PredictionServer.Options(host, port, Math.max(1, n), file, 10));
    } catch (UncheckedIOException e) {
      predictor.close();
      throw new InputException("--host " + host + " --port " + port + ": " + e.getMessage(), e);
    }
    err.printf(
        "depbloom: serving %s of %s on %s (version %d%s); snapshot %s on shutdown%n",
        predictor.modelName(),
        dir,
        server.uri(),
        predictor.version(),
        restore ? ", restored from " + file : "",
        file);
    err.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close(); // drains requests, writes the snapshot
                    err.printf("depbloom: stopped; snapshot written to %s%n", file);
                  } catch (RuntimeException e) {
                    err.printf("depbloom: error: no snapshot written at shutdown: %s%n", e);
                  } finally {
                    predictor.close();
                    err.flush();
                    stopped.countDown();
                  }
                },
                "depbloom-serve-shutdown"));
    stopped.await();
    return 0;
  }
}
