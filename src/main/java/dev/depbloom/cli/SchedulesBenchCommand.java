package dev.depbloom.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.depbloom.bench.ComparisonReport;
import dev.depbloom.bench.ScheduleComparison;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.observe.DeviceProjection;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
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
      "Trains the same data, model, seed and epochs under sequential, disttgl at every (i, k)"
          + " split of G, depbloom (alone and in memory groups), the same with window-start"
          + " prefill, and depbloom's ablations (partitioning only, refinement only,"
          + " no critical path), and reports per row: validation and test AP, training events/s"
          + " measured on this machine's workers and projected to G real devices, the time to"
          + " reach sequential's final validation AP minus 0.5 points (measured and projected:"
          + " the first of --validations-per-epoch validations an epoch at or above it, and,"
          + " sustained, the one after which the row stays there), and the speedups over the"
          + " fastest disttgl. Writes comparison.json, comparison.md,"
          + " comparison.png (AP against events/s) and comparison-curves.png (AP against projected"
          + " time, every validation) to --out. The projection uses only costs measured in the run and"
          + " the stated link; two runs at G = --check-devices with one worker per device check"
          + " it against measurement. Test passes score one negative per event (test AP does"
          + " not depend on more) unless --set train.eval_negatives says otherwise.",
      ""
    })
final class SchedulesBenchCommand implements Callable<Integer> {
  @Mixin DataOptions data;

  @Mixin ModelOptions model;

  @Option(
      names = "--devices",
      paramLabel = "G",
      defaultValue = "8",
      description = "Logical devices (default 8).")
  int devices;

  @Option(names = "--epochs", paramLabel = "N", defaultValue = "3", description = "Epochs.")
  int epochs;

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
      description = "Workers of the compared rows (default: one per core).")
  Integer workers;

  @Option(
      names = "--rows",
      paramLabel = "GROUPS",
      split = ",",
      defaultValue = "disttgl,depbloom,prefill,ablations",
      description =
          "Row groups to run besides sequential (which sets the target): disttgl (every (i, k)"
              + " split), depbloom, prefill (the depbloom rows with schedule.prefill), ablations"
              + " (default: all four).")
  List<String> rowGroups;

  @Option(
      names = "--disttgl-k",
      paramLabel = "K",
      split = ",",
      description =
          "Only the disttgl rows with these memory-group counts k (default: every divisor of G),"
              + " e.g. 1,2,4 to leave out i=1 k=8 at G = 8.")
  List<Integer> disttglK = new ArrayList<>();

  @Option(
      names = "--validations-per-epoch",
      paramLabel = "N",
      defaultValue = "4",
      description =
          "Validations per epoch, the last at its end (default 4): the time to target is found"
              + " to within 1/N of an epoch. A validation inside an epoch copies the validation"
              + " memory view, replays the epoch's remaining training events into the copy and"
              + " validates on it; training is untouched and its time is not training time.")
  int validationsPerEpoch;

  @Option(
      names = "--check-devices",
      paramLabel = "G",
      defaultValue = "2",
      description = "G of the projection check runs, one worker per device (0: none).")
  int checkDevices;

  @Option(
      names = "--link-latency-us",
      paramLabel = "US",
      defaultValue = "10",
      description = "Link latency of the projection, microseconds (default 10).")
  double latencyMicros;

  @Option(
      names = "--link-gbps",
      paramLabel = "GB/S",
      defaultValue = "16",
      description = "Link bandwidth of the projection, GB/s (default 16, PCIe 4.0 x16 class).")
  double gigabytesPerSecond;

  @Option(names = "--out", paramLabel = "DIR", description = "Output folder (must not exist).")
  Path out;

  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    EnumSet<ScheduleComparison.RowGroup> groups = checkedRowGroups();
    PrintWriter err = spec.commandLine().getErr();
    TrainingRun base = baseRun(err);
    Path dir = out != null ? out : defaultOut();
    if (Files.exists(dir)) {
      throw new InputException(dir + ": output folder exists; choose another --out");
    }
    DeviceProjection.Link link =
        new DeviceProjection.Link(latencyMicros * 1e-6, gigabytesPerSecond * 1e9);
    ScheduleComparison.Result r =
        ScheduleComparison.run(
            base,
            new ScheduleComparison.Settings(
                devices,
                epochs,
                link,
                checkDevices,
                dir.resolve("runs"),
                groups,
                new TreeSet<>(disttglK),
                validationsPerEpoch),
            row -> {
              err.printf(
                  Locale.ROOT,
                  "depbloom: %-28s val AP %.4f, test AP %.4f, %,.0f events/s here, %,.0f"
                      + " projected%n",
                  row.label(),
                  row.valAp(),
                  row.testAp(),
                  row.eventsPerSecond(),
                  row.projectedEventsPerSecond());
              err.flush();
            });
    String md = ComparisonReport.markdown(r, link, validationsPerEpoch);
    Map<String, Object> summary = summary(base, groups, link, r);
    writeReports(dir, md, summary, base, r);
    PrintWriter o2 = spec.commandLine().getOut();
    o2.print(md);
    if (output.json) {
      o2.println(Summaries.json(summary));
    }
    o2.flush();
    return 0;
  }

  /** The row groups asked for, once every numeric option has been checked. */
  private EnumSet<ScheduleComparison.RowGroup> checkedRowGroups() {
    if (devices < 1
        || epochs < 1
        || validationsPerEpoch < 1
        || checkDevices < 0
        || latencyMicros < 0
        || gigabytesPerSecond <= 0) {
      throw new InputException(
          "--devices, --epochs and --validations-per-epoch must be at least 1, --check-devices"
              + " at least 0, the link"
              + " latency at least 0 and its bandwidth positive");
    }
    for (int k : disttglK) {
      if (k < 1 || devices % k != 0) {
        throw new InputException(
            "--disttgl-k "
                + k
                + ": not a divisor of --devices "
                + devices
                + " (a memory-group count)");
      }
    }
    EnumSet<ScheduleComparison.RowGroup> groups = EnumSet.noneOf(ScheduleComparison.RowGroup.class);
    for (String g : rowGroups) {
      try {
        groups.add(ScheduleComparison.RowGroup.of(g));
      } catch (IllegalArgumentException e) {
        throw new InputException("--rows: " + e.getMessage());
      }
    }
    return groups;
  }

  /** The data, model, seed and epochs every row trains, on the rows' workers. */
  private TrainingRun baseRun(PrintWriter err) {
    EventStream events = RunSetup.loadData(data.path, data.load.toLoadOptions(err), edgeFeatureDim);
    Map<String, String> o = new LinkedHashMap<>();
    o.put("train.eval_negatives", "1"); // test AP uses the first negative; MRR is not compared
    o.putAll(model.overrides);
    o.put("train.epoch", String.valueOf(epochs));
    RunConfig config =
        RunSetup.withAttentionInput(
            RunConfig.zoo(model.name, o), events, o.containsKey("gnn.dim_time"), err);
    int cores = Runtime.getRuntime().availableProcessors();
    int w = workers();
    return new TrainingRun(
        events,
        data.source(),
        Split.of(events),
        config,
        seed,
        RunSetup.threadBudget(null, w, cores).chosen(), // 1 + 1 per worker, as train's default
        cores);
  }

  /** Workers of the compared rows: {@code --workers}, or one per core. */
  private int workers() {
    return workers != null ? workers : Runtime.getRuntime().availableProcessors();
  }

  /** What comparison.json holds. */
  private Map<String, Object> summary(
      TrainingRun base,
      EnumSet<ScheduleComparison.RowGroup> groups,
      DeviceProjection.Link link,
      ScheduleComparison.Result r) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("data", base.dataSource());
    summary.put("model", base.config().name());
    summary.put("devices", devices);
    summary.put("epochs", epochs);
    summary.put("workers", workers());
    summary.put("validationsPerEpoch", validationsPerEpoch);
    summary.put("rowGroups", groups);
    summary.put("disttglK", disttglK);
    summary.put("linkLatencySeconds", link.latencySeconds());
    summary.put("linkBytesPerSecond", link.bytesPerSecond());
    summary.put("targetValAp", r.targetValAp());
    summary.put("rows", r.rows());
    summary.put("checks", r.checks());
    return summary;
  }

  /** Writes comparison.md, comparison.json and the two plots to {@code dir}. */
  private void writeReports(
      Path dir,
      String md,
      Map<String, Object> summary,
      TrainingRun base,
      ScheduleComparison.Result r) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try {
      Files.writeString(dir.resolve("comparison.md"), md);
      mapper.writeValue(dir.resolve("comparison.json").toFile(), summary);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String name = base.config().name();
    ComparisonReport.plot(
        r,
        name + " on " + base.dataSource() + ", G = " + devices + ", " + epochs + " epochs",
        dir.resolve("comparison.png"));
    ComparisonReport.plotCurves(
        r,
        name
            + " on "
            + base.dataSource()
            + ", G = "
            + devices
            + ": validation AP"
            + " against projected training time",
        dir.resolve("comparison-curves.png"));
  }

  private static Path defaultOut() {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return Path.of("runs", "bench-schedules-" + stamp);
  }
}
