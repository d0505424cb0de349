package dev.depbloom.schedule;

import dev.depbloom.device.Collective;
import dev.depbloom.device.DeviceExecutor;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.Generators;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.Tensor;

/**
 * Runs training rounds (docs/architecture.md, "A round"): plan (on the coordinating thread, each
 * busy device's item is drawn and sampled, in device order: {@link RoundPlanner}), execute (the
 * items run on the workers, {@link DeviceExecutor}: device {@code d} on worker {@code d mod W}),
 * sum (the collective sums their gradients in device order), step (one optimizer step), exchange
 * (the round's memory writes reach every process and the store, views merge: {@link
 * MemoryExchange}), observe (the round's costs: {@link RoundRecorder}).
 *
 * <p><b>Processes.</b> Each process runs the items of the logical devices the schedule places on
 * its rank ({@link Schedule#rankOf}), sums gradients and the loss with the other processes, and
 * commits what its schedule's {@link WriteExchange} hands it, so every process keeps the same
 * memory.
 *
 * <p><b>Randomness</b> is keyed by logical identities only, never by worker (see {@link
 * RoundPlanner}). Hence a schedule's result does not depend on {@code W} as long as {@code W <= G}.
 *
 * <p><b>More workers than devices</b> ({@code W > G}, e.g. {@code sequential} on 2 cores; over
 * several processes {@code W} counts every rank's workers): each item is split into {@code floor(W
 * / G)} contiguous event shards, trained in parallel as one item: every shard reads the same
 * memory, its loss is weighted by its share of the round's events, the shards' gradients are summed
 * in shard order and their writes merged last-wins. Shards draw uniform samples and dropout masks
 * from streams extended by the shard index, so a run is reproducible for a given {@code W}.
 *
 * <p><b>Timing.</b> Per logical device: sample (on the coordinator), fetch, memory update, train,
 * memory write (building the write value), and sync — from the end of the device's item to the end
 * of the round (waiting for other devices, the gradient sum, the optimizer step, the commit). With
 * shards, a device's compute stages are those of its first shard (the shards run concurrently). The
 * run-level timer is the coordinating thread's own time: its sampling, the items it ran as worker
 * 0, its wait for the other workers and the gradient sum ({@code sync}), the optimizer step ({@code
 * train}) and the commit ({@code memoryWrite}).
 */
public final class RoundRunner implements AutoCloseable {
  private final TrainingSession session;
  private final Schedule schedule;
  private final DeviceExecutor executor;
  private final Collective collective;
  private final Generator[] generators; // one per worker
  private final RoundRecorder recorder;
  private final RoundPlanner planner;
  private final MemoryExchange memory;
  private RoundObserver observer; // null: none
  private final long gradientBytes; // of one gradient, 4 per parameter element
  private int recordWorkUpToEpoch; // record the kernels of epochs 1 .. this (0: none)

  /** Rounds of {@code schedule} on {@code workers} workers, committed by {@code commit}. */
  public RoundRunner(
      TrainingSession session,
      Schedule schedule,
      int workers,
      Collective collective,
      CommitPolicy commit) {
    this.session = session;
    this.schedule = schedule;
    this.executor = new DeviceExecutor(workers);
    this.collective = collective;
    this.generators = Generators.perWorker(workers);
    this.recorder = new RoundRecorder(schedule.devices());
    this.planner = new RoundPlanner(session, schedule, workers, collective, recorder);
    WriteExchange exchange =
        collective.worldSize() > 1 ? schedule.writeExchange() : new EveryRoundExchange();
    this.memory =
        new MemoryExchange(
            session, collective, commit, exchange, schedule.windowMemory(), recorder);
    List<long[]> shapes = new ArrayList<>();
    long elements = 0;
    for (int p = 0; p < session.replica().parameterCount(); p++) {
      shapes.add(session.replica().parameters().get(p).sizes().vec().get());
      elements += session.replica().parameters().get(p).numel();
    }
    this.gradientBytes = 4 * elements;
    collective.parameters(shapes);
  }

  /** Receives the measured costs of every later round (null: none). */
  public void observe(RoundObserver observer) {
    this.observer = observer;
  }

  /**
   * Records the kernels of every round of epochs 1 to {@code epoch} (0: none), stage by stage
   * ({@link StageTimer#recordWork}), into the round costs' work: a GPU projection's input. Rounds
   * repeat their shapes from epoch to epoch, so one epoch recorded prices all; recording costs
   * about 6-7% of a TGN item's CPU time (docs/measurements/recorded-work.md).
   */
  public void recordWorkUpToEpoch(int epoch) {
    this.recordWorkUpToEpoch = epoch;
  }

  /** Records every stage of every later round as spans of {@code trace} (null: stop tracing). */
  public void trace(ChromeTrace trace) {
    recorder.trace(trace);
  }

  public Schedule schedule() {
    return schedule;
  }

  /** The coordinating thread's stage times since the last {@link #resetTimers()}. */
  public StageTimer timer() {
    return recorder.runTimer();
  }

  /** Each logical device's stage times since the last {@link #resetTimers()}, in device order. */
  public List<StageTimer> deviceTimers() {
    return recorder.deviceTimers();
  }

  public void resetTimers() {
    recorder.resetTimers();
  }

  /** Runs one training round of epoch {@code epoch}; returns the mean loss of its events. */
  public double run(RoundPlan round, int epoch) {
    return run(round, null, epoch);
  }

  /**
   * Epoch {@code epoch}'s {@code rounds}, to be run in order through the returned cursor, which
   * gives each round the round after it as its look-ahead ({@link #run(RoundPlan, RoundPlan, int)};
   * none after the epoch's last): the one place the look-ahead is decided.
   */
  public EpochRounds epoch(List<RoundPlan> rounds, int epoch) {
    return new EpochRounds(rounds, epoch);
  }

  /** A cursor over one epoch's rounds ({@link #epoch}). */
  public final class EpochRounds {
    private final List<RoundPlan> rounds;
    private final int epoch;
    private int next;

    private EpochRounds(List<RoundPlan> rounds, int epoch) {
      this.rounds = List.copyOf(rounds);
      this.epoch = epoch;
    }

    public boolean hasNext() {
      return next < rounds.size();
    }

    /** The index of the round {@link #runNext()} runs next. */
    public int nextIndex() {
      return next;
    }

    /** The round {@link #runNext()} runs next. */
    public RoundPlan peek() {
      return rounds.get(next);
    }

    /** Runs the next round with its look-ahead; returns the mean loss of its events. */
    public double runNext() {
      RoundPlan round = rounds.get(next++);
      return run(round, next < rounds.size() ? rounds.get(next) : null, epoch);
    }
  }

  /**
   * Runs one training round of epoch {@code epoch}; {@code next} is the round after it in the same
   * epoch, or null. When the commit plans ahead (the critical path), {@code next} is planned
   * (sampled) by the coordinating thread while the workers train this round, and its reads decide
   * which of this round's writes are hot. Returns the mean loss of the round's events.
   */
  public double run(RoundPlan round, RoundPlan next, int epoch) {
    collective.beginRound(epoch, round.index());
    recorder.recordWork(epoch <= recordWorkUpToEpoch);
    memory.startRound(round, epoch);
    PlannedRound planned = planner.planned(round, epoch);
    WorkerPool.Results<DeviceStep.Result> done = execute(planned, next, epoch);
    List<DeviceStep.Result> results = done.values();
    try {
      done.orThrow();
      collectTimes(planned, done.waitNanos());
      double loss = sumAndStep(round, results);
      List<DeviceWrite> writes = new ArrayList<>(results.size());
      for (DeviceStep.Result r : results) {
        writes.addAll(r.writes());
      }
      if (!session.memory().isNone()) {
        memory.commitRound(round, next, planner.prefetched(), writes);
      }
      if (observer != null) {
        observer.roundFinished(
            recorder.costs(planned, !session.memory().isNone(), results, gradientBytes));
      }
      recordSync(results, round);
      return loss;
    } finally {
      for (DeviceStep.Result r : results) {
        if (r != null) {
          r.close();
        }
      }
    }
  }

  /** The round's tasks on the workers; the coordinator plans {@code next} first if it should. */
  private WorkerPool.Results<DeviceStep.Result> execute(
      PlannedRound planned, RoundPlan next, int epoch) {
    boolean prefetch = memory.plansAhead() && next != null;
    List<DeviceStep.Task> tasks = planned.tasks();
    return executor.run(
        tasks.size(),
        t ->
            session
                .step()
                .train(
                    tasks.get(t),
                    session.memory(),
                    generators[t % executor.workers()],
                    planned.timers().get(t)),
        () -> {
          if (prefetch) {
            planner.prefetch(next, epoch);
          }
        });
  }

  /** Sums the gradients and the loss over all processes; one optimizer step. */
  private double sumAndStep(RoundPlan round, List<DeviceStep.Result> results) {
    double localLoss = 0;
    List<Tensor[]> gradients = new ArrayList<>(results.size());
    for (DeviceStep.Result r : results) {
      localLoss += r.loss();
      gradients.add(r.gradients());
    }
    try (StepScope scope = new StepScope()) {
      Tensor[] sum =
          recorder.coordinator(
              Stage.SYNC,
              "allReduce",
              round.index(),
              () -> collective.sum(gradients, session.replica().parameterCount()));
      recorder.coordinator(
          Stage.TRAIN,
          "optimizerStep",
          round.index(),
          () -> {
            session.replica().step(sum);
            return null;
          });
    }
    return collective.sum(localLoss);
  }

  /**
   * The coordinator's wait for the other workers; devices get their first shard's stages, the run
   * timer what worker 0 (this thread) ran.
   */
  private void collectTimes(PlannedRound planned, long waitNanos) {
    long waitStart = System.nanoTime() - waitNanos;
    recorder.runTimer().record(Stage.SYNC, waitStart, waitNanos);
    List<DeviceStep.Task> tasks = planned.tasks();
    for (int t = 0; t < tasks.size(); t++) {
      if (tasks.get(t).shard() == 0) {
        recorder.deviceTimer(tasks.get(t).device()).add(planned.timers().get(t));
      }
      if (t % executor.workers() == 0) {
        recorder.runTimer().add(planned.timers().get(t));
      }
    }
  }

  /** Each device's sync: from the end of its item to the end of the round. */
  private void recordSync(List<DeviceStep.Result> results, RoundPlan round) {
    long end = System.nanoTime();
    for (DeviceStep.Result r : results) {
      if (r.task().shard() == 0) {
        int d = r.task().device();
        recorder.deviceTimer(d).record(Stage.SYNC, r.endNanos(), end - r.endNanos());
        recorder.span(d, Stage.SYNC.key(), r.endNanos(), end - r.endNanos(), round.index());
      }
    }
  }

  /** Waits until every memory write committed so far has landed (before reading the store). */
  public void drain() {
    memory.drain();
  }

  @Override
  public void close() {
    try {
      memory.close();
    } finally {
      executor.close();
      collective.close();
    }
  }
}
