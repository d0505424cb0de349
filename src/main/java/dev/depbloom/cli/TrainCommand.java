package dev.depbloom.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.device.Collective;
import dev.depbloom.device.RankEnvironment;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.tensor.ThreadBudgetCalibration;
import dev.depbloom.train.EpochMetrics;
import dev.depbloom.train.ProgressReporter;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.RunSummary;
import dev.depbloom.train.Trainer;
import dev.depbloom.train.TrainingRun;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code depbloom train}: trains a model, validates every epoch, tests the best epoch. */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Trains a temporal GNN for link prediction with TGL's semantics: per epoch a memory reset, a"
          + " training pass and a validation pass (AP, AUC); then the best epoch is tested after a"
          + " memory reset and a replay of training and validation events (AP, AUC, MRR, new-node"
          + " AP). Every run writes config.yml, run.json, metrics.jsonl, checkpoints and test.json"
          + " to its output folder.",
      "",
      "Schedules spread training over logical devices (--schedule, --devices): sequential (one"
          + " device, TGL), disttgl (DistTGL's mini-batch and memory parallelism) or depbloom"
          + " (temporal windows, sub-chains, refined micro-batches, critical path). A schedule's"
          + " accuracy depends on its devices, not on the workers (--workers) that run them.",
      "",
      "With no arguments: TGN on the embedded Wikipedia data set.",
      ""
    })
final class TrainCommand implements Callable<Integer> {
  @Mixin DataOptions data;

  @Mixin ModelOptions model;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Model config in YAML (TGL's files load as they are); replaces --model's.")
  Path config;

  @Option(names = "--epochs", paramLabel = "N", description = "Training epochs (train.epoch).")
  Integer epochs;

  @Option(
      names = "--batch-size",
      paramLabel = "B",
      description = "Events per batch (train.batch_size).")
  Integer batchSize;

  @Option(names = "--lr", paramLabel = "RATE", description = "Adam learning rate (train.lr).")
  Double learningRate;

  @Option(
      names = "--eval-negatives",
      paramLabel = "K",
      description = "Negatives per test event for MRR (train.eval_negatives; default 49).")
  Integer evalNegatives;

  @Option(
      names = "--edge-feature-dim",
      paramLabel = "W",
      description =
          "Gives data without edge features zero features of width W (e.g. 172 for WIKI).")
  Integer edgeFeatureDim;

  @Option(
      names = "--schedule",
      paramLabel = "NAME",
      description =
          "sequential (default; one device, TGL's semantics), disttgl (DistTGL: i batches per"
              + " round per memory group, k memory groups; schedule.minibatch_parallelism,"
              + " schedule.memory_parallelism) or depbloom (temporal windows cut into sub-chains,"
              + " micro-batches with memory refinement, hot rows first; schedule.window,"
              + " .partitioner, .chains, .micro_batches, .refine, .critical_path; unset ones come"
              + " from the dependency profile; .memory_parallelism M runs it in M memory groups, one"
              + " per machine, as DistTGL's groups). The learning rate is scaled by the devices unless"
              + " schedule.scale_lr=false.")
  String schedule;

  @Option(
      names = "--devices",
      paramLabel = "G",
      description =
          "Logical devices of the schedule (schedule.devices; default 1). Results depend on G, not"
              + " on --workers.")
  Integer devices;

  @Option(
      names = "--workers",
      paramLabel = "W",
      description =
          "Threads that run the logical devices' work items (device d on worker d mod W)."
              + " Default: one per core. Each gets intra-op 1 and BLAS 1 threads unless --threads"
              + " says otherwise, so below 2G workers W changes how many items run at once, not"
              + " the figures; from 2G on, each item is split into floor(W/G) event shards and the"
              + " figures depend on W (the run's first line says so).")
  Integer workers;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Writes a Chrome trace (open in ui.perfetto.dev) of the training rounds: one track per"
              + " logical device, stage spans with round numbers.")
  Path trace;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "Run seed.")
  long seed;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output folder (default: runs/MODEL-TIMESTAMP); must not exist or be empty.")
  Path out;

  @Option(
      names = "--resume",
      paramLabel = "DIR",
      description =
          "Continues the run in DIR from its last completed epoch (other options ignored).")
  Path resume;

  @Option(
      names = "--sampler-threads",
      paramLabel = "N",
      description = "Java threads for neighbor sampling (default: the number of cores).")
  Integer samplerThreads;

  @Option(
      names = "--collective-timeout",
      paramLabel = "SECONDS",
      defaultValue = "120",
      description =
          "For a run of several processes (depbloom launch, or torchrun's environment variables):"
              + " how long joining the others and each collective may take before the run stops"
              + " with the round and the rank named (default 120).")
  long collectiveTimeout;

  @Mixin ThreadOptions threads;

  @Mixin JsonOption output;

  @Option(names = "--quiet", description = "No progress output on standard error.")
  boolean quiet;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    RankEnvironment ranks = Rendezvous.environment();
    if (resume != null) {
      return resume(err, ranks);
    }
    LoadOptions options = data.load.toLoadOptions(err);
    EventStream events = RunSetup.loadData(data.path, options, edgeFeatureDim);
    Split split = Split.of(events);
    RunConfig resolved = resolveConfig();
    int cores = Rendezvous.cores(ranks);
    ThreadBudgetCalibration.Result threadChoice =
        RunSetup.threadBudget(threads.spec, workers, cores);
    ThreadBudget budget = threadChoice.chosen();
    Map<String, Double> calibration =
        threadChoice.millisByCandidate().isEmpty() ? null : threadChoice.millisByCandidate();
    // before the other notes: whether the figures depend on the thread settings is the first
    // thing a run says (only the data's warnings and errors, about the input, come before it)
    WorkerInvariance invariance =
        WorkerInvariance.of(budget, resolved.schedule().devices(), ranks.worldSize());
    invariance.print(err);
    RunConfig cfg =
        RunSetup.withResolvedSchedule(
            RunSetup.withAttentionInput(
                resolved,
                events,
                config != null || model.overrides.containsKey("gnn.dim_time"),
                err),
            events,
            split,
            err);
    TrainingRun run =
        new TrainingRun(
            events,
            data.source(),
            split,
            cfg,
            seed,
            budget,
            samplerThreads != null ? samplerThreads : cores);
    // The model is built before anything is written: a config that does not fit the data fails
    // here and leaves no output folder behind. Of several processes, rank 0 alone writes.
    Collective collective = Rendezvous.join(ranks, run, 0, Duration.ofSeconds(collectiveTimeout));
    try (Trainer trainer = trainer(run, collective)) {
      traceTo(trainer, collective);
      RunDirectory dir =
          collective.rank() == 0
              ? createDirectory(run, options, calibration, invariance, ranks)
              : null;
      RunSummary summary = train(trainer, dir, run, err, ranks, collective);
      if (summary != null) {
        print(summary, dir);
      }
    }
    return 0;
  }

  /** Rank 0's new run folder, holding config.yml and run.json before the first epoch. */
  private RunDirectory createDirectory(
      TrainingRun run,
      LoadOptions options,
      Map<String, Double> calibration,
      WorkerInvariance invariance,
      RankEnvironment ranks) {
    RunConfig cfg = run.config();
    RunDirectory dir = RunDirectory.create(out != null ? out : RunSetup.defaultOut(cfg.name()));
    dir.writeConfig(cfg.toYaml());
    ObjectNode info =
        RunSetup.runInfo(
            run,
            data.path,
            options,
            edgeFeatureDim,
            calibration,
            List.of(spec.commandLine().getParseResult().originalArgs().toArray(new String[0])));
    invariance.record((ObjectNode) info.get("threads"));
    if (ranks.distributed()) {
      ObjectNode p = info.putObject("processes");
      p.put("worldSize", ranks.worldSize());
      p.put("nodes", ranks.nodes());
      p.put("perNode", ranks.localWorldSize());
      p.put("master", ranks.master());
    }
    dir.writeRunInfo(info);
    return dir;
  }

  /** {@code --resume}: the recorded run, continued from its last completed epoch. */
  private int resume(PrintWriter err, RankEnvironment ranks) {
    RunDirectory dir = RunDirectory.open(resume);
    TrainingRun run = RunSetup.fromDirectory(dir, null);
    WorkerInvariance.of(run.threads(), run.config().schedule().devices(), ranks.worldSize())
        .print(err);
    Collective collective =
        Rendezvous.join(
            ranks, run, dir.peekState().lastEpoch(), Duration.ofSeconds(collectiveTimeout));
    try (Trainer trainer = trainer(run, collective)) {
      traceTo(trainer, collective);
      RunSummary summary = train(trainer, dir, run, err, ranks, collective);
      if (summary != null) {
        print(summary, dir);
      }
    }
    return 0;
  }

  /** A trainer over {@code collective}, which it closes (also when it cannot be built). */
  private static Trainer trainer(TrainingRun run, Collective collective) {
    try {
      return new Trainer(run, collective);
    } catch (RuntimeException e) {
      collective.close();
      throw e;
    }
  }

  /**
   * Trains, then (rank 0) tests; returns the summary, or null on the other ranks of a multi-process
   * run, which write and print nothing but errors and their start line.
   */
  private RunSummary train(
      Trainer trainer,
      RunDirectory dir,
      TrainingRun run,
      PrintWriter err,
      RankEnvironment ranks,
      Collective collective) {
    try {
      return trainAndTest(trainer, dir, run, err, ranks, collective);
    } catch (RuntimeException e) {
      Rendezvous.reportFailure(collective, e);
      throw e;
    }
  }

  private RunSummary trainAndTest(
      Trainer trainer,
      RunDirectory dir,
      TrainingRun run,
      PrintWriter err,
      RankEnvironment ranks,
      Collective collective) {
    boolean writer = collective.rank() == 0;
    RunDirectory.ResumeState state =
        dir == null
            ? new RunDirectory.ResumeState(List.of(), 0, 0)
            : writer ? dir.readState() : dir.peekState();
    if (!quiet) {
      if (writer) {
        trainer.addListener(
            new ProgressReporter(
                System.err, run.model().train().epochs(), System.console() != null));
      }
      Summaries.printStart(
          err, Rendezvous.describe(ranks, collective), run, trainer.schedule(), dir);
      err.flush();
    }
    if (state.lastEpoch() > 0) {
      trainer.restore(dir, state.lastEpoch());
    }
    List<EpochMetrics> history = trainer.fit(dir, state.history(), state.bestEpoch());
    if (!writer) {
      return null;
    }
    if (tracer != null) {
      tracer.write(trace);
      if (!quiet) {
        err.printf("depbloom: trace of %,d spans written to %s%n", tracer.spanCount(), trace);
        err.flush();
      }
    }
    int best = dir.readState().bestEpoch();
    TestMetrics test = trainer.test(dir, best);
    dir.writeTest(test);
    return new RunSummary(history, best, test);
  }

  private ChromeTrace tracer;

  private void traceTo(Trainer trainer, Collective collective) {
    if (trace != null && collective.rank() == 0) {
      tracer = new ChromeTrace();
      trainer.trace(tracer);
    }
  }

  private RunConfig resolveConfig() {
    Map<String, String> o = new LinkedHashMap<>(model.overrides);
    if (schedule != null) {
      o.put("schedule.name", schedule);
    }
    if (devices != null) {
      o.put("schedule.devices", String.valueOf(devices));
    }
    if (epochs != null) {
      o.put("train.epoch", String.valueOf(epochs));
    }
    if (batchSize != null) {
      o.put("train.batch_size", String.valueOf(batchSize));
    }
    if (learningRate != null) {
      o.put("train.lr", String.valueOf(learningRate));
    }
    if (evalNegatives != null) {
      o.put("train.eval_negatives", String.valueOf(evalNegatives));
    }
    if (config != null) {
      String name = config.getFileName().toString().replaceFirst("\\.ya?ml$", "");
      return RunConfig.read(config, name, o);
    }
    return RunConfig.zoo(model.name, o);
  }

  private void print(RunSummary s, RunDirectory dir) {
    Map<String, Object> m = Summaries.of(s, dir);
    PrintWriter o = spec.commandLine().getOut();
    if (output.json) {
      o.println(Summaries.json(m));
    } else {
      o.print(Summaries.table(m));
    }
    o.flush();
  }
}
