package dev.depbloom.schedule;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.device.Collective;
import dev.depbloom.device.DeviceExecutor;
import dev.depbloom.memory.CommitPolicy;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.WorkerPool;
import dev.depbloom.train.ChromeTrace;
import dev.depbloom.train.DeviceStep;
import dev.depbloom.train.Stage;
import dev.depbloom.train.StageTimer;
import dev.depbloom.train.TrainingSession;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Runs training rounds (DESIGN.md section 3): on the coordinating thread, each busy device's item
 * is drawn (negatives) and planned (sampling), in device order; the items run on the workers
 * ({@link DeviceExecutor}: device {@code d} on worker {@code d mod W}); the collective sums their
 * gradients in device order; one optimizer step; the commit policy applies the round's memory
 * writes.
 *
 * <p><b>Randomness</b> is keyed by logical identities only, never by worker: an item's negatives,
 * neighbor samples and dropout masks come from streams keyed by (seed, epoch, first event of the
 * item, memory group). Group 0 adds no group key, so one group draws exactly what {@code
 * sequential} draws for the same batch. Hence a schedule's result does not depend on {@code W} as
 * long as {@code W <= G}.
 *
 * <p><b>More workers than devices</b> ({@code W > G}, e.g. {@code sequential} on 2 cores): each
 * item is split into {@code floor(W / G)} contiguous event shards, trained in parallel as one item:
 * every shard reads the same memory, its loss is weighted by its share of the round's events, the
 * shards' gradients are summed in shard order and their writes merged last-wins. Shards draw
 * uniform samples and dropout masks from streams extended by the shard index, so a run is
 * reproducible for a given {@code W}.
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
  private static final long TRAIN = RandomStreams.key("train");
  private static final long DROPOUT = RandomStreams.key("dropout");

  private final TrainingSession session;
  private final Schedule schedule;
  private final DeviceExecutor executor;
  private final Collective collective;
  private final CommitPolicy commit;
  private final Generator[] generators; // one per worker
  private final StageTimer runTimer = new StageTimer();
  private final StageTimer[] deviceTimers;
  private ChromeTrace trace; // null: not traced

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
    this.commit = commit;
    this.generators = new Generator[workers];
    for (int w = 0; w < workers; w++) {
      generators[w] = torch.make_generator_cpu(w);
    }
    this.deviceTimers = new StageTimer[schedule.devices()];
    for (int d = 0; d < deviceTimers.length; d++) {
      deviceTimers[d] = new StageTimer();
    }
  }

  /** Records every stage of every later round as spans of {@code trace} (null: stop tracing). */
  public void trace(ChromeTrace trace) {
    this.trace = trace;
  }

  public Schedule schedule() {
    return schedule;
  }

  /** The coordinating thread's stage times since the last {@link #resetTimers()}. */
  public StageTimer timer() {
    return runTimer;
  }

  /** Each logical device's stage times since the last {@link #resetTimers()}, in device order. */
  public List<StageTimer> deviceTimers() {
    return List.of(deviceTimers);
  }

  public void resetTimers() {
    runTimer.reset();
    for (StageTimer t : deviceTimers) {
      t.reset();
    }
  }

  /** Runs one training round of epoch {@code epoch}; returns the mean loss of its events. */
  public double run(RoundPlan round, int epoch) {
    for (int v : round.resetViews()) {
      session.resetView(v);
    }
    List<DeviceStep.Task> tasks = new ArrayList<>();
    List<StageTimer> taskTimers = new ArrayList<>();
    for (ItemPlan item : round.items()) {
      plan(item, round, epoch, tasks, taskTimers);
    }
    WorkerPool.Results<DeviceStep.Result> done =
        executor.run(
            tasks.size(),
            t ->
                session
                    .step()
                    .train(
                        tasks.get(t),
                        session.memory(),
                        generators[t % executor.workers()],
                        taskTimers.get(t)));
    List<DeviceStep.Result> results = done.values();
    try {
      done.orThrow();
      long waitStart = System.nanoTime() - done.waitNanos();
      runTimer.record(Stage.SYNC, waitStart, done.waitNanos());
      collectTimes(tasks, taskTimers);
      double loss = 0;
      List<Tensor[]> gradients = new ArrayList<>(results.size());
      List<CommitPolicy.ViewWrite> writes = new ArrayList<>(results.size());
      for (DeviceStep.Result r : results) {
        loss += r.loss();
        gradients.add(r.gradients());
        if (r.write() != null) {
          writes.add(new CommitPolicy.ViewWrite(r.task().view(), r.write()));
        }
      }
      try (StepScope scope = new StepScope()) {
        Tensor[] sum =
            coordinator(
                Stage.SYNC,
                "allReduce",
                round,
                () -> collective.sum(gradients, session.replica().parameterCount()));
        coordinator(Stage.TRAIN, "optimizerStep", round, () -> step(sum));
      }
      if (session.memory() != null) {
        coordinator(Stage.MEMORY_WRITE, "commit", round, () -> commitWrites(writes));
      }
      long end = System.nanoTime();
      for (DeviceStep.Result r : results) {
        if (r.task().shard() == 0) {
          int d = r.task().device();
          deviceTimers[d].record(Stage.SYNC, r.endNanos(), end - r.endNanos());
          span(d, Stage.SYNC.key(), r.endNanos(), end - r.endNanos(), round.index());
        }
      }
      return loss;
    } finally {
      for (DeviceStep.Result r : results) {
        if (r != null) {
          r.close();
        }
      }
    }
  }

  /** Draws and plans one item (or its shards) on the coordinating thread. */
  private void plan(
      ItemPlan item,
      RoundPlan round,
      int epoch,
      List<DeviceStep.Task> tasks,
      List<StageTimer> taskTimers) {
    long sampleStart = System.nanoTime();
    long[] keys =
        item.view() == 0
            ? new long[] {TRAIN, epoch, item.start()}
            : new long[] {TRAIN, epoch, item.start(), item.view()};
    long stream = RandomStreams.derive(session.run().seed(), keys);
    Batch batch = session.batch(round.index(), item.start(), item.end(), 1, keys);
    int shards = Math.min(Math.max(1, executor.workers() / schedule.devices()), batch.size());
    int b = batch.size();
    for (int s = 0; s < shards; s++) {
      Batch part = shards == 1 ? batch : batch.slice(s * b / shards, (s + 1) * b / shards);
      long partStream = shards == 1 ? stream : RandomStreams.extend(stream, s);
      BatchGraph graph = session.planner().plan(part, partStream, session.sampler(item.view()));
      tasks.add(
          new DeviceStep.Task(
              item.device(),
              item.view(),
              round.index(),
              graph,
              (double) part.size() / round.events(),
              RandomStreams.derive(stream, DROPOUT, s),
              s));
      taskTimers.add(new StageTimer().traceTo(trace, item.device(), round.index()));
    }
    long took = System.nanoTime() - sampleStart;
    runTimer.record(Stage.SAMPLE, sampleStart, took);
    deviceTimers[item.device()].record(Stage.SAMPLE, sampleStart, took);
    span(item.device(), Stage.SAMPLE.key(), sampleStart, took, round.index());
  }

  /** Devices get their first shard's stages; the run timer gets what worker 0 (this thread) ran. */
  private void collectTimes(List<DeviceStep.Task> tasks, List<StageTimer> taskTimers) {
    for (int t = 0; t < tasks.size(); t++) {
      if (tasks.get(t).shard() == 0) {
        deviceTimers[tasks.get(t).device()].add(taskTimers.get(t));
      }
      if (t % executor.workers() == 0) {
        runTimer.add(taskTimers.get(t));
      }
    }
  }

  private Void step(Tensor[] gradients) {
    session.replica().step(gradients);
    return null;
  }

  private Void commitWrites(List<CommitPolicy.ViewWrite> writes) {
    try (StepScope scope = new StepScope()) {
      commit.commit(session.memory(), writes);
    }
    return null;
  }

  /** Times coordinator work on the run timer and as a span of the coordinator's track. */
  private <T> T coordinator(Stage stage, String name, RoundPlan round, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
      long took = System.nanoTime() - t0;
      runTimer.record(stage, t0, took);
      span(ChromeTrace.COORDINATOR, name, t0, took, round.index());
    }
  }

  private void span(int track, String name, long start, long duration, int round) {
    if (trace != null) {
      trace.span(track, name, start, duration, round);
    }
  }

  @Override
  public void close() {
    executor.close();
    collective.close();
  }
}
