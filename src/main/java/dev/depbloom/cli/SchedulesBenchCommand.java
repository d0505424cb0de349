package dev.depbloom.cli;

import dev.depbloom.bench.Candidates;
import dev.depbloom.bench.ComparisonReport;
import dev.depbloom.bench.LearningRateGrid;
import dev.depbloom.bench.ScheduleComparison;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.DeviceProjection;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code depbloom bench schedules}: sequential, disttgl and depbloom side by side. */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Trains the same data, model and seed under sequential, disttgl at every (i, k) split"
          + " of G and depbloom alone and in memory groups (--rows adds the same with window-start"
          + " prefill, and depbloom's ablations), and reports per row: best validation AP, test AP"
          + " (both protocols), training events/s measured here and projected (from this machine's"
          + " costs, and onto each --device-model GPU), and the time to the target (sequential's"
          + " validation AP minus 0.5 points) under each clock, with the speedup over the fastest"
          + " disttgl and whether one validation decides it. By default (--mode converged) every"
          + " row trains until validation stops improving, at the best learning rate of --lr-grid;"
          + " --mode epochs trains --epochs epochs at each schedule's own rate. Every row is"
          + " validated at the same amounts of trained events (--check-every). Writes"
          + " comparison.json, comparison.md and the plots to --out.",
      "",
      "About 25 minutes on 2 cores for TGN on Wikipedia at G = 8; the prefill rows add about 8"
          + " (--only narrows it).",
      ""
    })
final class SchedulesBenchCommand implements Callable<Integer> {
  @Mixin DataOptions data;

  @Mixin ModelOptions model;

  @Option(
      names = "--devices",
      paramLabel = "G",
      defaultValue = "8",
      description = "Logical devices.")
  int devices;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      defaultValue = "converged",
      description = "converged (default) or epochs.")
  String mode;

  @Option(
      names = "--epochs",
      paramLabel = "N",
      defaultValue = "3",
      description = "Epochs per row with --mode epochs (default 3).")
  int epochs;

  @Option(
      names = "--device-model",
      paramLabel = "NAMES",
      split = ",",
      defaultValue = "measured",
      description =
          "Clocks to project onto besides this machine's measurements: 'measured' (this machine's"
              + " costs on G devices, always included) and GPU device models, shipped (a100-pcie,"
              + " a100-nvlink, rtx4090, h200) or a YAML file (dev/depbloom/devices/README.md).")
  List<String> deviceModels;

  @Option(
      names = "--check-every",
      paramLabel = "F",
      defaultValue = "0.5",
      description =
          "Validate after every F training splits of trained events (default 0.5), and at every"
              + " epoch's end.")
  double checkEvery;

  @Option(
      names = "--patience",
      paramLabel = "N",
      defaultValue = "4",
      description = "Converged: stop after N validations without a better AP (default 4).")
  int patience;

  @Option(
      names = "--max-trained",
      paramLabel = "F",
      defaultValue = "10",
      description = "Converged: stop after F training splits of trained events (default 10).")
  double maxTrained;

  @Option(
      names = "--lr-grid",
      paramLabel = "LIST",
      split = ",",
      defaultValue = "1,sqrtG,G",
      description = "Converged: learning-rate multipliers (numbers, G, sqrtG; default 1,sqrtG,G).")
  List<String> lrGrid;

  @Option(
      names = "--lr-screen",
      paramLabel = "F",
      defaultValue = "1",
      description =
          "Converged: train each rate F training splits, then the best to convergence from the"
              + " start (default 1; 0: every rate to convergence).")
  double lrScreen;

  @Option(
      names = "--edge-feature-dim",
      paramLabel = "W",
      description = "Zero edge features of width W for data without them (172 for WIKI).")
  Integer edgeFeatureDim;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "Seed.")
  long seed;

  @Option(
      names = "--workers",
      paramLabel = "W",
      description =
          "Workers of the compared rows (default: one per core; at most G with a GPU model).")
  Integer workers;

  @Option(
      names = "--rows",
      paramLabel = "GROUPS",
      split = ",",
      defaultValue = "disttgl,depbloom",
      description =
          "Row groups besides sequential: disttgl (every (i, k) split), depbloom, prefill,"
              + " ablations (default: disttgl,depbloom, which fits 30 minutes at G = 8 on 2"
              + " cores; add prefill for our window-start prefill rows).")
  List<String> rowGroups;

  @Option(
      names = "--only",
      paramLabel = "LABELS",
      split = ",",
      description =
          "Only the rows with these labels, e.g. 'sequential,disttgl i=1 j=8 k=1 B=600,depbloom"
              + " P=8 k=4 B=600 M=1'"
              + " (sequential always runs: it sets the target).")
  List<String> only = new ArrayList<>();

  @Option(
      names = "--disttgl-k",
      paramLabel = "K",
      split = ",",
      description = "Only the disttgl rows with these memory-group counts k (default: all).")
  List<Integer> disttglK = new ArrayList<>();

  @Option(
      names = "--depbloom-k",
      paramLabel = "K",
      split = ",",
      description =
          "Micro-batches k of the depbloom rows, each chain's large batch of k x B on its device"
              + " (default: 1,4).")
  List<Integer> depbloomK = new ArrayList<>(List.of(1, 4));

  @Option(
      names = "--check-devices",
      paramLabel = "G",
      defaultValue = "0",
      description = "G of projection check runs, one worker per device (default 0: none).")
  int checkDevices;

  @Option(
      names = "--link-latency-us",
      paramLabel = "US",
      defaultValue = "10",
      description = "Link latency of the 'measured' projection, microseconds (default 10).")
  double latencyMicros;

  @Option(
      names = "--link-gbps",
      paramLabel = "GB/S",
      defaultValue = "16",
      description = "Link bandwidth of the 'measured' projection, GB/s (default 16).")
  double gigabytesPerSecond;

  @Option(names = "--out", paramLabel = "DIR", description = "Output folder (must not exist).")
  Path out;

  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    ScheduleComparison.Settings settings = settings();
    PrintWriter err = spec.commandLine().getErr();
    TrainingRun base = baseRun(err);
    ScheduleComparison.Result r = ScheduleComparison.run(base, settings, row -> progress(err, row));
    String md = ComparisonReport.markdown(r);
    String title =
        base.config().name()
            + " on "
            + shortSource(base.dataSource())
            + ", G = "
            + devices
            + (settings.mode() == ScheduleComparison.Mode.EPOCHS
                ? ", " + epochs + (epochs == 1 ? " epoch" : " epochs")
                : "");
    Map<String, Object> summary = ComparisonOutput.summary(base, r);
    ComparisonOutput.write(settings.out().getParent(), md, summary, r, title);
    PrintWriter o = spec.commandLine().getOut();
    o.print(md);
    if (output.json) {
      o.println(Summaries.json(summary));
    }
    o.flush();
    return 0;
  }

  private static void progress(PrintWriter err, ScheduleComparison.Row row) {
    err.printf(
        Locale.ROOT,
        "depbloom: %-28s best val AP %.4f, test AP %.4f / %.4f, lr %.2e, %,d events trained%n",
        row.label(),
        row.run().bestValAp(),
        row.run().testAp(),
        row.run().testApContinued(),
        row.run().learningRate(),
        row.run().trainedEvents());
    err.flush();
  }

  /** The comparison's settings, every option checked. */
  private ScheduleComparison.Settings settings() {
    ScheduleComparison.Mode m =
        switch (mode.toLowerCase(Locale.ROOT)) {
          case "converged" -> ScheduleComparison.Mode.CONVERGED;
          case "epochs" -> ScheduleComparison.Mode.EPOCHS;
          default -> throw new InputException("--mode " + mode + ": expected converged or epochs");
        };
    if (devices < 1 || epochs < 1 || patience < 1 || checkDevices < 0) {
      throw new InputException(
          "--devices, --epochs and --patience must be at least 1, --check-devices at least 0");
    }
    if (!(checkEvery > 0) || !(maxTrained > 0) || lrScreen < 0) {
      throw new InputException(
          "--check-every and --max-trained must be positive, --lr-screen at least 0");
    }
    if (latencyMicros < 0 || !(gigabytesPerSecond > 0)) {
      throw new InputException("--link-latency-us must be at least 0 and --link-gbps positive");
    }
    LearningRateGrid grid;
    try {
      grid = LearningRateGrid.parse(lrGrid);
    } catch (IllegalArgumentException e) {
      throw new InputException("--lr-grid: " + e.getMessage());
    }
    EnumSet<Candidates.RowGroup> groups = rowGroups();
    List<DeviceModel> gpus = new ArrayList<>();
    for (String name : deviceModels) {
      if (!name.trim().equals("measured")) {
        gpus.add(DeviceModel.load(name.trim()));
      }
    }
    Path dir = out != null ? out : RunSetup.defaultOut("bench-schedules");
    if (Files.exists(dir)) {
      throw new InputException(dir + ": output folder exists; choose another --out");
    }
    return new ScheduleComparison.Settings(
        devices,
        m,
        epochs,
        checkEvery,
        patience,
        maxTrained,
        grid,
        lrScreen,
        new DeviceProjection.Link(latencyMicros * 1e-6, gigabytesPerSecond * 1e9),
        List.copyOf(gpus),
        checkDevices,
        dir.resolve("runs"),
        groups,
        new TreeSet<>(disttglK),
        new TreeSet<>(depbloomK),
        List.copyOf(only));
  }

  /** The row groups, and the disttgl and depbloom k and --only labels among them, checked. */
  private EnumSet<Candidates.RowGroup> rowGroups() {
    for (int k : disttglK) {
      if (k < 1 || devices % k != 0) {
        throw new InputException("--disttgl-k " + k + ": not a divisor of --devices " + devices);
      }
    }
    EnumSet<Candidates.RowGroup> groups = EnumSet.noneOf(Candidates.RowGroup.class);
    for (String g : rowGroups) {
      try {
        groups.add(Candidates.RowGroup.of(g));
      } catch (IllegalArgumentException e) {
        throw new InputException("--rows: " + e.getMessage());
      }
    }
    for (int k : depbloomK) {
      if (k < 1) {
        throw new InputException("--depbloom-k " + k + ": expected at least 1 micro-batch");
      }
    }
    int batchSize = RunConfig.zoo(model.name, model.overrides).model().train().batchSize();
    List<String> labels =
        Candidates.of(
                devices, 1, groups, new TreeSet<>(disttglK), new TreeSet<>(depbloomK), batchSize)
            .stream()
            .map(c -> c.label())
            .toList();
    for (String label : only) {
      if (!labels.contains(label)) {
        throw new InputException(
            "--only '" + label + "': no such row among --rows (rows: " + labels + ")");
      }
    }
    return groups;
  }

  /** The data, model and seed every row trains, on the rows' workers. */
  private TrainingRun baseRun(PrintWriter err) {
    EventStream events = RunSetup.loadData(data.path, data.load.toLoadOptions(err), edgeFeatureDim);
    Map<String, String> o = new LinkedHashMap<>();
    o.put("train.eval_negatives", "1"); // test AP uses the first negative; MRR is not compared
    o.putAll(model.overrides);
    RunConfig config =
        RunSetup.withAttentionInput(
            RunConfig.zoo(model.name, o), events, o.containsKey("gnn.dim_time"), err);
    int cores = Runtime.getRuntime().availableProcessors();
    int w = workers != null ? workers : cores;
    return new TrainingRun(
        events,
        data.source(),
        Split.of(events),
        config,
        seed,
        RunSetup.threadBudget(null, w, cores).chosen(), // 1 + 1 per worker, as train's default
        cores);
  }

  /**
   * The data source as a chart title shows it: a file's name without its folders (a long relative
   * path pushed the title past the chart's edge), anything else as given.
   */
  static String shortSource(String source) {
    if (source.indexOf('/') < 0 && source.indexOf('\\') < 0) {
      return source;
    }
    Path name = Path.of(source).getFileName();
    return name == null ? source : name.toString();
  }
}
