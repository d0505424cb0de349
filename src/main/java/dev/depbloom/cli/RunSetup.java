package dev.depbloom.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.model.config.GnnConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.schedule.ScheduleFamily;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.tensor.ThreadBudgetCalibration;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.RunData;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.SavedRun;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Resolves what a run is from the command line (data, edge-feature stand-ins, config, threads) and
 * records it in {@code run.json}, so that {@code --resume} and {@code evaluate} rebuild exactly the
 * same run from its folder.
 */
final class RunSetup {
  static final String EMBEDDED = RunData.EMBEDDED;

  /** {@code --threads auto}: the budget measured at start ({@link ThreadBudgetCalibration}). */
  static final String AUTO_THREADS = "auto";

  private static final ObjectMapper JSON = new ObjectMapper();

  private RunSetup() {}

  /**
   * A new folder under {@code runs/} named {@code NAME-yyyyMMdd-HHmmss}, for a run without --out.
   */
  static Path defaultOut(String name) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return Path.of("runs", name + "-" + stamp);
  }

  /** The data: a path, or the embedded data set; zero edge features of a width if asked for. */
  static EventStream loadData(String source, LoadOptions options, Integer edgeFeatureDim) {
    return RunData.load(source, options, edgeFeatureDim);
  }

  /**
   * A model whose attention would have nothing to attend over on these events (no memory, no node
   * or edge features, no time encoding: DySAT on a bare edge list) gets a time encoding of the
   * default width, said in one line on {@code err}. The choice is part of the returned config, so
   * config.yml records it and {@code --resume} and {@code evaluate} rebuild the same model. When
   * the user set the width ({@code timeWidthGiven}), it stays and building the model explains.
   */
  static RunConfig withAttentionInput(
      RunConfig config, EventStream events, boolean timeWidthGiven, PrintWriter err) {
    int nodeDim = events.nodeFeatures().dim();
    int edgeDim = events.edgeFeatures().dim();
    ModelConfig model = config.model();
    if (timeWidthGiven || !model.attentionHasNoInput(nodeDim, edgeDim)) {
      return config;
    }
    int width = GnnConfig.DEFAULT_DIM_TIME;
    err.printf(
        "depbloom: note: %s: the data has no node or edge features, so attention gets a time"
            + " encoding (gnn.dim_time=%d, kept in config.yml); choose with --set gnn.dim_time=W"
            + " or give stand-in features with --edge-feature-dim W%n",
        model.name(), width);
    err.flush();
    return config.withModel(model.withGnn(model.gnn().withDimTime(width)));
  }

  /**
   * The config with its schedule's unset parameters chosen by the schedule's family (a {@code
   * depbloom} schedule's window, partitioner, chains and micro-batches by the dependency profile of
   * the training events), said in one line on {@code err} with the reason; other configs as they
   * are. Runs before any output is written, so config.yml records the choice.
   */
  static RunConfig withResolvedSchedule(
      RunConfig config, EventStream events, Split split, PrintWriter err) {
    if (!config.schedule().needsResolution()) {
      return config;
    }
    ScheduleFamily.Resolution r =
        ScheduleFamilies.resolve(
            config.schedule(), events, split, config.model().train().batchSize());
    if (r.note() != null) {
      err.println("depbloom: note: " + r.note());
      err.flush();
    }
    return config.withSchedule(r.config());
  }

  /**
   * The tensor thread budget: {@code INTRA,BLAS[,WORKERS]} as given with {@code --threads}; else
   * {@code workers} workers (default: one per core), each of intra-op 1 and BLAS 1. Every work item
   * then runs with the same threads whatever the worker count, so a schedule's result depends on
   * its logical devices alone: the workers say how many items run at once, never with how many
   * threads one item's products run (OpenBLAS rounds differently with 1 and 2 threads; giving one
   * worker all cores' BLAS threads moved TGN's validation AP by a point on CollegeMsg). The default
   * is a function of the cores, never of a timing. {@code --threads auto} measures the budget (the
   * result then carries the milliseconds per candidate).
   */
  static ThreadBudgetCalibration.Result threadBudget(String spec, Integer workers, int cores) {
    if (workers != null && workers < 1) {
      throw new InputException("--workers " + workers + ": expected a positive count");
    }
    if (AUTO_THREADS.equals(spec)) {
      if (workers != null) {
        throw new InputException(
            "--workers " + workers + " contradicts --threads auto; give one of them");
      }
      return ThreadBudgetCalibration.calibrate(cores);
    }
    if (spec != null) {
      ThreadBudget b = parseThreads(spec);
      if (workers != null && spec.split(",").length == 3 && b.workers() != workers) {
        throw new InputException(
            "--workers "
                + workers
                + " contradicts --threads "
                + spec
                + "; give the workers in one of them");
      }
      if (workers != null) {
        b = new ThreadBudget(b.intraOp(), b.blas(), workers);
      }
      return new ThreadBudgetCalibration.Result(b, Map.of());
    }
    int w = workers != null ? workers : Math.max(1, cores);
    return new ThreadBudgetCalibration.Result(new ThreadBudget(1, 1, w), Map.of());
  }

  private static ThreadBudget parseThreads(String spec) {
    String[] parts = spec.split(",");
    try {
      if (parts.length == 2 || parts.length == 3) {
        return new ThreadBudget(
            Integer.parseInt(parts[0].trim()),
            Integer.parseInt(parts[1].trim()),
            parts.length == 3 ? Integer.parseInt(parts[2].trim()) : 1);
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new InputException(
        "--threads "
            + spec
            + ": expected positive counts INTRA,BLAS or INTRA,BLAS,WORKERS, e.g. 1,2 or 1,1,2, or"
            + " auto");
  }

  /** CRC32C of the event columns: a run is only resumed or evaluated on the same events. */
  static String fingerprint(EventStream events) {
    return RunData.fingerprint(events);
  }

  /** Records the run's provenance: everything needed to rebuild it, and versions. */
  static ObjectNode runInfo(
      TrainingRun run,
      String source,
      LoadOptions options,
      Integer edgeFeatureDim,
      Map<String, Double> calibration,
      List<String> command) {
    ObjectNode info = JSON.createObjectNode();
    info.put("model", run.config().name());
    info.put("seed", run.seed());
    ObjectNode data = info.putObject("data");
    data.put("source", source == null ? EMBEDDED : source);
    data.put("format", options.format() == null ? null : EventLoader.formatName(options.format()));
    data.put("columns", options.columns() == null ? null : options.columns().toString());
    data.put("strict", options.strict());
    if (options.bipartite() != null) {
      data.put("bipartite", options.bipartite());
    }
    if (edgeFeatureDim != null) {
      data.put("edgeFeatureDim", edgeFeatureDim);
    }
    EventStream e = run.events();
    data.put("events", e.eventCount());
    data.put("nodes", e.nodeCount());
    data.put("isBipartite", e.bipartite());
    data.put("fingerprint", fingerprint(e));
    ObjectNode split = info.putObject("split");
    split.put("train", run.split().trainCount());
    split.put("val", run.split().valCount());
    split.put("test", run.split().testCount());
    ObjectNode threads = info.putObject("threads");
    threads.put("intraOp", run.threads().intraOp());
    threads.put("blas", run.threads().blas());
    threads.put("workers", run.threads().workers());
    threads.put("sampler", run.samplerThreads());
    if (calibration != null) {
      ObjectNode c = threads.putObject("calibrationMillis");
      calibration.forEach(c::put);
    }
    info.put("device", RankDevice.forThisProcess().device()); // where the replica and batches live
    info.put("cudaAvailable", TensorRuntime.cudaAvailable());
    ObjectNode versions = info.putObject("versions");
    String v = Main.class.getPackage().getImplementationVersion();
    versions.put("depbloom", v != null ? v : "development build");
    versions.put("java", System.getProperty("java.version"));
    versions.put("tensorEngine", TensorRuntime.engineVersion());
    info.put("gitRevision", gitRevision());
    info.put("startedAt", Instant.now().toString());
    info.set("command", JSON.valueToTree(command));
    return info;
  }

  /** Rebuilds a recorded run from its folder; {@code dataOverride} replaces the recorded source. */
  static TrainingRun fromDirectory(RunDirectory dir, String dataOverride) {
    return SavedRun.open(dir, dataOverride).run();
  }

  /** The git revision of the checkout the jar was built from, with "-dirty" if modified. */
  static String gitRevision() {
    try {
      Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path dir = Files.isDirectory(jar) ? jar : jar.getParent();
      String rev = run(dir, "git", "rev-parse", "HEAD");
      if (rev == null) {
        return "unknown";
      }
      String status = run(dir, "git", "status", "--porcelain", "--untracked-files=no");
      return rev + (status != null && !status.isEmpty() ? "-dirty" : "");
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static String run(Path dir, String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
      return null;
    }
    return out;
  }
}
