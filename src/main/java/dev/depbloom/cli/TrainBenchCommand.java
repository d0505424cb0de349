package dev.depbloom.cli;

import dev.depbloom.bench.TrainingBenchmark;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code depbloom bench train}: training steps per second, per stage, and resident memory. */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs training steps over the training batches in time order and reports events/s, the"
          + " seconds per stage, and the resident memory (RSS) every few steps. No files are written.",
      ""
    })
final class TrainBenchCommand implements Callable<Integer> {
  @Mixin DataOptions data;

  @Option(
      names = "--edge-feature-dim",
      paramLabel = "W",
      description = "Zero edge features of width W for data without them (172 as WIKI).")
  Integer edgeFeatureDim;

  @Option(names = "--steps", defaultValue = "300", paramLabel = "N", description = "Timed steps.")
  int steps;

  @Option(names = "--warmup", defaultValue = "20", paramLabel = "N", description = "Untimed steps.")
  int warmup;

  @Option(
      names = "--rss-every",
      defaultValue = "100",
      paramLabel = "N",
      description = "Read resident memory every N steps.")
  int rssEvery;

  @Mixin ModelOptions model;

  @Mixin ThreadOptions threads;

  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (steps < 1 || warmup < 0 || rssEvery < 1) {
      throw new InputException("--steps and --rss-every must be at least 1, --warmup at least 0");
    }
    PrintWriter err = spec.commandLine().getErr();
    EventStream events = RunSetup.loadData(data.path, data.load.toLoadOptions(err), edgeFeatureDim);
    Split split = Split.of(events);
    RunConfig config =
        RunSetup.withResolvedSchedule(
            RunSetup.withAttentionInput(
                RunConfig.zoo(model.name, model.overrides),
                events,
                model.overrides.containsKey("gnn.dim_time"),
                err),
            events,
            split,
            err);
    int cores = Runtime.getRuntime().availableProcessors();
    ThreadBudget budget = RunSetup.threadBudget(threads.spec, null, cores).chosen();
    TrainingRun run = new TrainingRun(events, data.path, split, config, 0, budget, cores);
    TrainingBenchmark.Result r = TrainingBenchmark.run(run, warmup, steps, rssEvery);
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("model", r.model());
      m.put("threads", budget.toString());
      m.put("steps", r.steps());
      m.put("events", r.events());
      m.put("seconds", r.seconds());
      m.put("trainEventsPerSecond", r.eventsPerSecond());
      m.put("stageSeconds", r.stageSeconds());
      m.put("rssMb", r.rss());
      m.put("rssGrowthMb", r.rssGrowthMb());
      out.println(Summaries.json(m));
    } else {
      out.printf(
          Locale.ROOT,
          "%s: %d steps, %,d events in %.1f s: %,.0f events/s (threads %s)%n",
          r.model(),
          r.steps(),
          r.events(),
          r.seconds(),
          r.eventsPerSecond(),
          budget);
      r.stageSeconds().forEach((k, v) -> out.printf(Locale.ROOT, "  %-13s %7.2f s%n", k, v));
      for (TrainingBenchmark.RssSample s : r.rss()) {
        out.printf(Locale.ROOT, "  RSS after %5d steps: %7.1f MiB%n", s.step(), s.rssMb());
      }
    }
    out.flush();
    return 0;
  }
}
