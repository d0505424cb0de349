package dev.depbloom.cli;

import dev.depbloom.api.PredictorOptions;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.InputException;
import dev.depbloom.serve.PredictionServer;
import dev.depbloom.serve.ServerLimits;
import java.io.IOException;
import java.io.PrintWriter;
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
          + " /metrics (Prometheus) report, POST /snapshot saves the state. Every accepted batch"
          + " of events is written to a journal and forced to disk before it is answered, and a"
          + " start replays it after the snapshot: nothing acknowledged is lost to a crash"
          + " (kill -9). On SIGINT or SIGTERM it writes a snapshot, and the next start continues"
          + " from it. Times beyond the newest event by more than the time horizon, ids outside"
          + " the id space and requests over the limits are refused. See docs/serving.md.",
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
          "Start from the checkpoint even when the snapshot file exists (it is replaced, and the"
              + " journal beside it discarded).")
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
      description =
          "Model workers: requests that score or observe at once (default: the cores). /health"
              + " and /metrics never wait for them.")
  Integer threads;

  @Option(
      names = "--time-horizon",
      paramLabel = "T",
      description =
          "How far beyond the newest observed event, in the data's time unit, an event's or a"
              + " query's time may lie (default: the run's training span, first to last training"
              + " event).")
  Double timeHorizon;

  @Option(
      names = "--id-bound",
      paramLabel = "N",
      description =
          "Node ids must lie in [0, N) (default: twice the run's largest id plus one, at least"
              + " that id plus --max-new-nodes plus one).")
  Long idBound;

  @Option(
      names = "--max-events",
      paramLabel = "N",
      description = "Events one POST /events may carry (default: ${DEFAULT-VALUE}).")
  int maxEvents = ServerLimits.DEFAULTS.maxEvents();

  @Option(
      names = "--max-pairs",
      paramLabel = "N",
      description = "Pairs one POST /score may carry (default: ${DEFAULT-VALUE}).")
  int maxPairs = ServerLimits.DEFAULTS.maxPairs();

  @Option(
      names = "--max-candidates",
      paramLabel = "N",
      description = "Candidates one POST /rank may carry (default: ${DEFAULT-VALUE}).")
  int maxCandidates = ServerLimits.DEFAULTS.maxCandidates();

  @Option(
      names = "--snapshot-every",
      paramLabel = "SECONDS",
      description =
          "Write the snapshot (and empty the journal) this often when the state changed"
              + " (default: ${DEFAULT-VALUE}; 0: only on POST /snapshot and at shutdown).")
  int snapshotEvery = 300;

  @Option(
      names = "--data",
      paramLabel = "PATH",
      description = "The run's data set, if it has moved (it must be the same events).")
  String data;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** {@code ", restored from F, 2 batches replayed from the journal"}, or the parts that apply. */
  private static String origin(TemporalLinkPredictor predictor, Path restoredFrom) {
    int n = predictor.replayedBatches();
    return (restoredFrom != null ? ", restored from " + restoredFrom : "")
        + (n > 0 ? ", " + n + (n == 1 ? " batch" : " batches") + " replayed from the journal" : "");
  }

  /** The predictor's options from the flags; a bad value is an input error naming its flag. */
  private PredictorOptions predictorOptions(Path journal) {
    PredictorOptions options =
        PredictorOptions.defaults()
            .withMaxNewNodes(maxNewNodes)
            .withData(data)
            .withJournal(journal);
    if (timeHorizon != null) {
      if (!(timeHorizon > 0) || timeHorizon.isInfinite()) {
        throw new InputException("--time-horizon: expected a positive number, got " + timeHorizon);
      }
      options = options.withTimeHorizon(timeHorizon);
    }
    if (idBound != null) {
      if (idBound < 1) {
        throw new InputException("--id-bound: expected a positive number, got " + idBound);
      }
      options = options.withIdBound(idBound);
    }
    return options;
  }

  /** The server's limits from the flags. */
  private ServerLimits limits() {
    if (snapshotEvery < 0) {
      throw new InputException(
          "--snapshot-every: expected 0 or more seconds, got " + snapshotEvery);
    }
    try {
      return ServerLimits.DEFAULTS.withCounts(maxEvents, maxPairs, maxCandidates);
    } catch (IllegalArgumentException e) {
      throw new InputException("--max-events, --max-pairs, --max-candidates: " + e.getMessage());
    }
  }

  /** The journal of the state kept in {@code snapshot}: beside it, {@code .journal} appended. */
  static Path journalOf(Path snapshot) {
    return snapshot.resolveSibling(snapshot.getFileName() + ".journal");
  }

  private static void deleteJournal(Path journal) {
    try {
      Files.deleteIfExists(journal);
    } catch (IOException e) {
      throw new InputException(
          journal + ": cannot discard the journal (--fresh): " + e.getMessage());
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    Path file = snapshot != null ? snapshot : dir.resolve("serving").resolve("snapshot.bin");
    Path journal = journalOf(file);
    PredictorOptions options = predictorOptions(journal); // flags checked before anything changes
    ServerLimits limits = limits();
    if (fresh) {
      deleteJournal(journal);
    }
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
              predictor,
              new PredictionServer.Options(
                  host, port, Math.max(1, n), file, 10, limits, snapshotEvery));
    } catch (IllegalStateException e) {
      predictor.close();
      throw new InputException("--host " + host + " --port " + port + ": " + e.getMessage(), e);
    }
    err.printf(
        "depbloom: serving %s of %s on %s (version %d%s); snapshot %s every %d s and on"
            + " shutdown, journal %s%n",
        predictor.modelName(),
        dir,
        server.uri(),
        predictor.version(),
        origin(predictor, restore ? file : null),
        file,
        snapshotEvery,
        journal);
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
