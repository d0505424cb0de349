package dev.depbloom.bench;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.observe.Stage;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.StageClock;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.OpRecorder;
import dev.depbloom.tensor.OpRecording;
import dev.depbloom.tensor.OpWork;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.global.torch;

/**
 * The recorded work of TGN training steps on the embedded Wikipedia stream (batch 600, as TGL):
 * kernels, FLOPs and bytes per stage of a work item ({@link StageClock}), plus the optimizer step
 * and the memory commit the schedule runs after it, and the top operators. Then runs one item again
 * and again, recorded and not in turn, timed in CPU time of the one thread that runs it (tensor and
 * BLAS threads 1, so that other processes on the machine count less): the recording's cost per
 * observed call. Not a unit test. Run after {@code mvn package}: {@code java -cp
 * target/test-classes:target/classes:target/lib/* dev.depbloom.bench.RecordedWorkBenchmark} with
 * {@code -Dmodel=tgn -Dwarmup=30 -Dsteps=10 -Dtimings=15}.
 */
public final class RecordedWorkBenchmark {
  private RecordedWorkBenchmark() {}

  private static final long TRAIN = RandomStreams.key("train");
  private static final long DROPOUT = RandomStreams.key("dropout");
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  public static void main(String[] args) {
    String model = System.getProperty("model", "tgn");
    int warmup = Integer.getInteger("warmup", 30);
    int steps = Integer.getInteger("steps", 10);
    int timings = Integer.getInteger("timings", 15);
    EventStream events = EmbeddedDatasets.wikipedia();
    Split split = Split.of(events);
    RunConfig config = RunConfig.zoo(model, Map.of());
    TrainingRun run = new TrainingRun(events, null, split, config, 0, new ThreadBudget(1, 1, 1), 1);
    Schedule schedule =
        ScheduleFamilies.build(
            config.schedule(), run.events(), run.split(), config.model().train().batchSize());
    try (TrainingSession session = new TrainingSession(run.session());
        RoundRunner runner =
            new RoundRunner(
                session, schedule, 1, new InProcessCollective(), schedule.commitPolicy())) {
      session.replica().model().train(true);
      List<RoundPlan> rounds = schedule.plan(1);
      for (int i = 0; i < warmup; i++) {
        runner.run(rounds.get(i), rounds.get(i + 1), 1);
      }
      Generator generator = torch.make_generator_cpu(0);
      // the work: distinct training items in time order, each followed by the optimizer step and
      // the memory commit, as a sequential run does them
      StageClock recorded = new StageClock(true);
      OpWork optimizer = OpWork.NONE;
      OpWork commit = OpWork.NONE;
      for (int k = 0; k < steps; k++) {
        RoundPlan round = rounds.get(warmup + k);
        try (DeviceStep.Result r =
            session
                .step()
                .train(
                    task(session, run.seed(), round, 1), session.memory(), generator, recorded)) {
          OpWork[] after = afterItem(session, r, round.index());
          optimizer = optimizer.plus(after[0]);
          commit = commit.plus(after[1]);
        }
      }
      report(recorded, optimizer, commit, steps);
      // the cost: one item run again and again, recorded and not in turn
      DeviceStep.Task task = task(session, run.seed(), rounds.get(warmup + steps), 1);
      long[] plainNanos = new long[timings];
      long[] recordedNanos = new long[timings];
      long observed = 0;
      for (int k = 0; k < 2 * timings; k++) {
        boolean record = k % 2 == 1;
        StageClock timer = new StageClock(record);
        long t0 = CPU.getCurrentThreadCpuTime();
        long took;
        try (DeviceStep.Result r = session.step().train(task, session.memory(), generator, timer)) {
          took = CPU.getCurrentThreadCpuTime() - t0;
        }
        if (record) {
          recordedNanos[k / 2] = took;
          for (Stage s : Stage.values()) {
            observed += timer.work(s).observedCalls();
          }
        } else {
          plainNanos[k / 2] = took;
        }
      }
      reportCost(plainNanos, recordedNanos, (double) observed / timings);
    }
  }

  /** The work item of a one-item round, planned as the round runner plans it. */
  private static DeviceStep.Task task(
      TrainingSession session, long seed, RoundPlan round, int epoch) {
    ItemPlan item = round.items().get(0);
    long[] keys = {TRAIN, epoch, item.start()};
    long stream = RandomStreams.derive(seed, keys);
    Batch batch = session.batch(round.index(), item.events(), 1, keys);
    BatchGraph graph = session.planner().plan(batch, stream, session.sampler(item.view()));
    return new DeviceStep.Task(
        item.device(),
        item.view(),
        round.index(),
        graph,
        1.0,
        RandomStreams.derive(stream, DROPOUT, 0),
        0);
  }

  /** The recorded work of the optimizer step and of the memory commit after an item. */
  private static OpWork[] afterItem(TrainingSession session, DeviceStep.Result r, int round) {
    OpWork[] out = new OpWork[2];
    try (StepScope scope = new StepScope()) {
      try (OpRecording ops = OpRecorder.startOnThisThread()) {
        session.replica().step(r.gradients());
        out[0] = ops.work();
      }
      try (OpRecording ops = OpRecorder.startOnThisThread()) {
        r.writes().forEach(w -> session.memory().apply(r.task().view(), w.write(), round));
        out[1] = ops.work();
      }
    }
    return out;
  }

  private static void report(StageClock recorded, OpWork optimizer, OpWork commit, int steps) {
    System.out.printf(Locale.ROOT, "per step (mean of %d recorded steps):%n", steps);
    OpWork item = OpWork.NONE;
    List<String> rows = new ArrayList<>();
    for (Stage s : Stage.values()) {
      OpWork w = recorded.work(s);
      if (w.observedCalls() > 0) {
        rows.add(row(s.key(), w, steps));
        item = item.plus(w);
      }
    }
    rows.add(row("item total", item, steps));
    rows.add(row("optimizer", optimizer, steps));
    rows.add(row("commit", commit, steps));
    rows.add(row("step total", item.plus(optimizer).plus(commit), steps));
    System.out.printf(
        Locale.ROOT,
        "%-14s %9s %10s %10s %10s %9s%n",
        "stage",
        "kernels",
        "GFLOP",
        "MB read",
        "MB written",
        "calls");
    rows.forEach(System.out::println);
    OpWork all = item.plus(optimizer).plus(commit);
    System.out.println("top operators by bytes (per step):");
    for (OpWork.Op o : all.topByBytes(12)) {
      System.out.println(op(o, steps));
    }
    System.out.println("top operators by FLOPs (per step):");
    for (OpWork.Op o : all.topByFlops(6)) {
      System.out.println(op(o, steps));
    }
    System.out.println("unruled: " + all.unruled());
    System.out.println("inferred composites: " + all.inferredComposites());
    System.out.println("unattributed calls: " + OpRecorder.unattributedCalls());
  }

  private static void reportCost(long[] plainNanos, long[] recordedNanos, double calls) {
    Arrays.sort(plainNanos);
    Arrays.sort(recordedNanos);
    int n = plainNanos.length;
    double plain = plainNanos[n / 2] / 1e6;
    double rec = recordedNanos[n / 2] / 1e6;
    System.out.printf(
        Locale.ROOT,
        "one item %d times each, CPU time of its thread: median %.1f ms plain (min %.1f),"
            + " %.1f ms recorded (min %.1f); %.0f calls observed: %.1f us per observed call%n",
        n,
        plain,
        plainNanos[0] / 1e6,
        rec,
        recordedNanos[0] / 1e6,
        calls,
        (rec - plain) * 1e3 / calls);
  }

  private static String row(String name, OpWork w, int steps) {
    return String.format(
        Locale.ROOT,
        "%-14s %9.1f %10.4f %10.2f %10.2f %9.1f",
        name,
        (double) w.kernels() / steps,
        w.flops() / 1e9 / steps,
        w.bytesRead() / 1e6 / steps,
        w.bytesWritten() / 1e6 / steps,
        (double) w.observedCalls() / steps);
  }

  private static String op(OpWork.Op o, int steps) {
    return String.format(
        Locale.ROOT,
        "  %-36s %7.1f calls %10.4f GFLOP %9.2f MB read %9.2f MB written",
        o.name(),
        (double) o.calls() / steps,
        o.flops() / 1e9 / steps,
        o.bytesRead() / 1e6 / steps,
        o.bytesWritten() / 1e6 / steps);
  }
}
