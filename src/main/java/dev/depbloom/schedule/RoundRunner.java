package dev.depbloom.schedule;

import dev.depbloom.device.Collective;
import dev.depbloom.device.DeviceExecutor;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.observe.Stage;
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
 * MemoryExchange}). What each part took is told as {@link RoundEvent}s to the {@link
 * RoundListener}s added with {@link #listen}; the runner knows no timer, trace or projection.
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
 * <p><b>Measuring.</b> Each task measures its own stages into a {@link
 * dev.depbloom.step.StageClock} (fetch, memory update, refinement, train, memory write); the runner
 * measures the coordinator's spans: sampling each item, prefills, the wait for the other workers,
 * the gradient sum, the optimizer step, the exchange, the commit (each view's) and the merge, and
 * each device's sync, from the end of its item to the end of the round.
 */
public final class RoundRunner implements AutoCloseable {
  private final TrainingSession session;
  private final Schedule schedule;
  private final DeviceExecutor executor;
  private final Collective collective;
  private final Generator[] generators; // one per worker
  private final RoundEvents events = new RoundEvents();
  private final RoundPlanner planner;
  private final MemoryExchange memory;
  private final long gradientBytes; // of one gradient, 4 per parameter element

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
    this.planner = new RoundPlanner(session, schedule, workers, collective, events);
    WriteExchange exchange =
        collective.worldSize() > 1 ? schedule.writeExchange() : new EveryRoundExchange();
    this.memory =
        new MemoryExchange(session, collective, commit, exchange, schedule.windowMemory(), events);
    List<long[]> shapes = new ArrayList<>();
    long elements = 0;
    for (int p = 0; p < session.replica().parameterCount(); p++) {
      shapes.add(session.replica().parameters().get(p).sizes().vec().get());
      elements += session.replica().parameters().get(p).numel();
    }
    this.gradientBytes = 4 * elements;
    collective.parameters(shapes);
  }

  /**
   * Tells {@code listener} the events of every later round (after the listeners added before it).
   */
  public void listen(RoundListener listener) {
    events.listen(listener);
  }

  public Schedule schedule() {
    return schedule;
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

    /** All the epoch's rounds this cursor runs, in order. */
    public List<RoundPlan> rounds() {
      return rounds;
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
    events.start(round.index(), epoch, round.events());
    memory.startRound(round, epoch);
    PlannedRound planned = planner.planned(round, epoch);
    WorkerPool.Results<DeviceStep.Result> done = execute(planned, next, epoch);
    List<DeviceStep.Result> results = done.values();
    try {
      done.orThrow();
      tasksRan(planned, done.waitNanos());
      double loss = sumAndStep(round, results);
      List<DeviceWrite> writes = new ArrayList<>(results.size());
      for (DeviceStep.Result r : results) {
        writes.addAll(r.writes());
      }
      if (!session.memory().isNone()) {
        memory.commitRound(round, next, planner.prefetched(), writes);
      }
      synced(results, round);
      events.emit(
          new RoundEvent.Finished(
              round.index(), planned, results, gradientBytes, !session.memory().isNone()));
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
                    planned.clocks().get(t)),
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
          events.coordinator(
              Stage.SYNC,
              "allReduce",
              round.index(),
              () -> collective.sum(gradients, session.replica().parameterCount()));
      events.coordinator(
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
   * Each task as it ran on its worker (task {@code t} on worker {@code t mod W}), then the wait.
   */
  private void tasksRan(PlannedRound planned, long waitNanos) {
    long waitStart = System.nanoTime() - waitNanos;
    List<DeviceStep.Task> tasks = planned.tasks();
    for (int t = 0; t < tasks.size(); t++) {
      events.emit(
          new RoundEvent.TaskRan(
              planned.round().index(),
              tasks.get(t),
              t % executor.workers(),
              planned.clocks().get(t)));
    }
    events.emit(new RoundEvent.WorkersJoined(planned.round().index(), waitStart, waitNanos));
  }

  /** Each device's sync: from the end of its item (its first shard) to the end of the round. */
  private void synced(List<DeviceStep.Result> results, RoundPlan round) {
    long end = System.nanoTime();
    for (DeviceStep.Result r : results) {
      if (r.task().shard() == 0) {
        events.emit(
            new RoundEvent.Synced(
                round.index(), r.task().device(), r.endNanos(), end - r.endNanos()));
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
