package dev.depbloom.schedule;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.device.Collective;
import dev.depbloom.device.DeviceExecutor;
import dev.depbloom.device.DeviceWrite;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.ViewRows;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.schedule.depbloom.CriticalPathCommit;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.MicroBatchChain;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.WorkerPool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * <p><b>Processes.</b> Each process runs the items of the logical devices its {@link Collective}
 * assigns it, sums gradients and the loss with the other processes, and commits every process's
 * writes (exchanged through the collective), so every process keeps the same memory.
 *
 * <p><b>Randomness</b> is keyed by logical identities only, never by worker: an item's negatives,
 * neighbor samples and dropout masks come from streams keyed by (seed, epoch, first event of the
 * item, memory group). Group 0 adds no group key, so one group draws exactly what {@code
 * sequential} draws for the same batch. Hence a schedule's result does not depend on {@code W} as
 * long as {@code W <= G}.
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
  private static final long TRAIN = RandomStreams.key("train");
  private static final long DROPOUT = RandomStreams.key("dropout");
  private static final long PREFILL = RandomStreams.key("prefill");

  private final TrainingSession session;
  private final Schedule schedule;
  private final DeviceExecutor executor;
  private final Collective collective;
  private final CommitPolicy commit;
  private final Generator[] generators; // one per worker
  private final StageTimer runTimer = new StageTimer();
  private final StageTimer[] deviceTimers;
  private ChromeTrace trace; // null: not traced
  private Planned prefetched; // the next round, planned while the current one trained
  private long lastSampleNanos; // of the item planned last
  private long criticalWriteBytes; // of the round just committed
  private final Map<String, Long> coordinatorNanos = new HashMap<>(); // this round's, by span name
  private RoundObserver observer; // null: none
  // of the round in flight, for the observer: the largest per-view commit and merge, and the bytes
  // the merge copied into the view that received most
  private long slowestViewCommitNanos;
  private long slowestViewMergeNanos;
  private long mergeBytes;
  private RoundCosts.Prefill prefillCost = RoundCosts.Prefill.NONE; // of the round in flight
  private final Map<Integer, boolean[]> hotMarks =
      new HashMap<>(); // view -> [N], cleared per round

  /**
   * Whether memory crosses processes only at merges (the schedule's views stay on one rank between
   * merges); then {@link #written} holds, per view, the rows this process wrote since the last.
   */
  private final boolean exchangeAtMerge;

  private final Map<Integer, java.util.BitSet> written = new HashMap<>();

  /** How long a micro-batch waits for an earlier one's memory write. */
  private static final long READ_TIMEOUT_MILLIS = 300_000;

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
    this.exchangeAtMerge = collective.worldSize() > 1 && schedule.exchangesAtMerge();
    List<long[]> shapes = new ArrayList<>();
    for (int p = 0; p < session.replica().parameterCount(); p++) {
      shapes.add(session.replica().parameters().get(p).sizes().vec().get());
    }
    collective.parameters(shapes);
  }

  /**
   * The commit policy a schedule asks for: hot rows first with the critical path, else everything
   * at the round's end; refined micro-batches' writes applied in order, others merged last-wins.
   */
  public static CommitPolicy commitPolicy(Schedule schedule) {
    boolean inOrder = schedule.refines();
    return schedule.criticalPath() ? new CriticalPathCommit(inOrder) : new LastWinsCommit(inOrder);
  }

  /** Receives the measured costs of every later round (null: none). */
  public void observe(RoundObserver observer) {
    this.observer = observer;
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
    return run(round, null, epoch);
  }

  /**
   * Runs one training round of epoch {@code epoch}; {@code next} is the round after it in the same
   * epoch, or null. With the critical path, {@code next} is planned (sampled) by the coordinating
   * thread while the workers train this round, and its reads decide which of this round's writes
   * are hot. Returns the mean loss of the round's events.
   */
  public double run(RoundPlan round, RoundPlan next, int epoch) {
    collective.beginRound(epoch, round.index());
    for (int v : round.resetViews()) {
      commit.drain();
      session.resetView(v);
      written.remove(v);
    }
    for (RoundPlan.Prefill f : round.prefills()) {
      prefill(f, round, epoch);
    }
    Planned planned = planned(round, epoch);
    boolean prefetch = schedule.criticalPath() && next != null;
    List<DeviceStep.Task> tasks = planned.tasks();
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
                        planned.timers().get(t)),
            () -> {
              if (prefetch) {
                prefetched = plan(next, epoch);
              }
            });
    List<DeviceStep.Result> results = done.values();
    try {
      done.orThrow();
      long waitStart = System.nanoTime() - done.waitNanos();
      runTimer.record(Stage.SYNC, waitStart, done.waitNanos());
      collectTimes(tasks, planned.timers());
      double localLoss = 0;
      List<Tensor[]> gradients = new ArrayList<>(results.size());
      List<DeviceWrite> writes = new ArrayList<>(results.size());
      for (DeviceStep.Result r : results) {
        localLoss += r.loss();
        gradients.add(r.gradients());
        if (r.write() != null) {
          writes.add(new DeviceWrite(r.task().device(), r.task().view(), r.write()));
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
      double loss = collective.sum(localLoss);
      if (session.memory() != null) {
        commitRound(round, next, writes);
      }
      if (observer != null) {
        observer.roundFinished(costs(round, planned, writes));
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

  /**
   * Runs one prefill ({@link RoundPlan.Prefill}) on this thread, timed as the {@code prefill}
   * stage: each later view takes the rows its predecessor replayed and replays its predecessor's
   * chain, memory writes only, with a sampler of its own (the views' samplers keep their cursors).
   * Every process runs every prefill of the round: the views hold the same merged memory at a
   * window's start everywhere, and the replay depends only on it, the stream and the parameters.
   */
  private void prefill(RoundPlan.Prefill f, RoundPlan round, int epoch) {
    commit.drain();
    long t0 = System.nanoTime();
    long bytes = 0;
    MemoryStore memory = session.memory();
    if (memory != null) {
      try (NeighborSampler sampler = session.newSampler()) {
        for (int p = 1; p < f.views().size(); p++) {
          int view = f.views().get(p);
          if (p > 1) {
            bytes += memory.copyWritten(f.views().get(p - 1), view);
          }
          for (int[] b : session.bounds(f.starts().get(p - 1), f.starts().get(p))) {
            long[] keys = {PREFILL, epoch, b[0], view};
            long stream = RandomStreams.derive(session.run().seed(), keys);
            Batch batch = session.batch(round.index(), b[0], b[1], 0, keys);
            session
                .step()
                .replay(session.planner().planWrite(batch, stream, sampler), memory, view);
          }
        }
      }
    }
    long took = System.nanoTime() - t0;
    runTimer.record(Stage.PREFILL, t0, took);
    span(ChromeTrace.COORDINATOR, Stage.PREFILL.key(), t0, took, round.index());
    prefillCost = prefillCost.plus(took, bytes, f.views().size() - 2);
  }

  /** Waits until every memory write committed so far has landed (before reading the store). */
  public void drain() {
    commit.drain();
  }

  /**
   * Exchanges the round's writes with the other processes, commits them, merges at window end. When
   * memory crosses processes only at merges, this process commits its own writes, notes the rows
   * they touch, and at the merge exchanges the final rows of the views it ran.
   */
  private void commitRound(RoundPlan round, RoundPlan next, List<DeviceWrite> writes) {
    List<DeviceWrite> all =
        exchangeAtMerge
            ? noteWritten(writes)
            : coordinator(
                Stage.SYNC, "exchangeWrites", round, () -> collective.exchangeWrites(writes));
    boolean allHot = next == null || round.mergeViews() || !next.resetViews().isEmpty();
    try {
      coordinator(
          Stage.MEMORY_WRITE,
          "commit",
          round,
          () -> commitWrites(all, round.index(), allHot ? v -> null : this::hotRows));
      criticalWriteBytes = 0;
      for (DeviceWrite w : all) {
        criticalWriteBytes += bytes(w, allHot ? null : hotMarks.get(w.view()));
      }
    } finally {
      for (DeviceWrite w : all) {
        if (!writes.contains(w)) {
          w.write().close(); // another process's write, received for this round
        }
      }
      clearHotRows();
    }
    if (round.mergeViews()) {
      if (exchangeAtMerge) {
        commit.drain();
        exchangeWrittenRows(round);
      }
      coordinator(
          Stage.MEMORY_WRITE,
          "merge",
          round,
          () -> {
            commit.drain();
            for (List<Integer> group : round.merges()) {
              // memory groups merge on their own devices, in parallel: the slowest view counts
              MemoryStore.MergeCost cost = session.memory().mergeLatest(group);
              for (int v = 0; v < group.size(); v++) {
                slowestViewMergeNanos = Math.max(slowestViewMergeNanos, cost.viewNanos()[v]);
                mergeBytes = Math.max(mergeBytes, cost.viewBytes()[v]);
              }
            }
            return null;
          });
    }
  }

  private List<DeviceWrite> noteWritten(List<DeviceWrite> writes) {
    for (DeviceWrite w : writes) {
      java.util.BitSet rows = written.computeIfAbsent(w.view(), v -> new java.util.BitSet());
      for (int node : w.write().memoryNodes()) {
        rows.set(node);
      }
      for (int node : w.write().mailNodes()) {
        rows.set(node);
      }
    }
    return writes;
  }

  /**
   * Sends the final rows this process wrote to the views merging after this round since their last
   * merge, and overwrites the other processes' copies of those views with theirs, so that every
   * process merges the same views. Views of memory groups that do not merge now wait for theirs.
   */
  private void exchangeWrittenRows(RoundPlan round) {
    List<ViewRows> mine = new ArrayList<>();
    java.util.Set<Integer> merging = new java.util.TreeSet<>();
    round.merges().forEach(merging::addAll);
    try (StepScope scope = new StepScope()) {
      for (var e : new java.util.TreeMap<>(written).entrySet()) {
        if (!merging.contains(e.getKey())) {
          continue;
        }
        int[] nodes = e.getValue().stream().toArray();
        mine.add(session.memory().readRows(e.getKey(), nodes));
      }
      List<ViewRows> all =
          coordinator(Stage.SYNC, "exchangeRows", round, () -> collective.exchangeRows(mine));
      for (ViewRows rows : all) {
        if (!mine.contains(rows)) {
          try (rows) {
            session.memory().replaceRows(rows);
          }
        }
      }
    } finally {
      mine.forEach(ViewRows::close);
      written.keySet().removeAll(merging);
    }
  }

  /** The tasks of a round: planned while the previous round trained, or now. */
  private Planned planned(RoundPlan round, int epoch) {
    Planned p = prefetched;
    prefetched = null;
    if (p != null && p.round() == round && p.epoch() == epoch) {
      return p;
    }
    return plan(round, epoch);
  }

  /** What the coordinator planned for a round: its tasks and their stage timers. */
  private record Planned(
      RoundPlan round,
      int epoch,
      List<DeviceStep.Task> tasks,
      List<StageTimer> timers,
      List<Long> sampleNanos) {}

  private Planned plan(RoundPlan round, int epoch) {
    List<DeviceStep.Task> tasks = new ArrayList<>();
    List<StageTimer> timers = new ArrayList<>();
    List<Long> sampleNanos = new ArrayList<>();
    Map<Integer, MicroBatchChain> chains = new HashMap<>();
    for (ItemPlan item : round.items()) {
      if (schedule.rankOf(item.device(), collective.worldSize()) != collective.rank()) {
        continue;
      }
      MicroBatchChain chain = null;
      int microBatch = 0;
      if (schedule.refines() && session.memory() != null) {
        chain = chains.computeIfAbsent(item.view(), v -> refinementChain(round, v));
        microBatch = microBatchIndex(round, item);
      }
      plan(item, round, epoch, chain, microBatch, tasks, timers);
      while (sampleNanos.size() < tasks.size()) {
        sampleNanos.add(sampleNanos.size() < tasks.size() - 1 ? 0L : lastSampleNanos);
      }
    }
    return new Planned(round, epoch, tasks, timers, sampleNanos);
  }

  private MicroBatchChain refinementChain(RoundPlan round, int view) {
    int n = 0;
    for (ItemPlan i : round.items()) {
      if (i.view() == view) {
        n++;
      }
    }
    return new MicroBatchChain(view, round.index(), n, READ_TIMEOUT_MILLIS);
  }

  /** The item's position among the round's items of its view (its micro-batch index). */
  private static int microBatchIndex(RoundPlan round, ItemPlan item) {
    int j = 0;
    for (ItemPlan i : round.items()) {
      if (i == item) {
        return j;
      }
      if (i.view() == item.view()) {
        j++;
      }
    }
    throw new IllegalArgumentException("item not in round " + round.index());
  }

  /** Draws and plans one item (or its shards) on the coordinating thread. */
  private void plan(
      ItemPlan item,
      RoundPlan round,
      int epoch,
      MicroBatchChain chain,
      int microBatch,
      List<DeviceStep.Task> tasks,
      List<StageTimer> taskTimers) {
    long sampleStart = System.nanoTime();
    long[] keys =
        item.view() == 0
            ? new long[] {TRAIN, epoch, item.start()}
            : new long[] {TRAIN, epoch, item.start(), item.view()};
    long stream = RandomStreams.derive(session.run().seed(), keys);
    Batch batch = session.batch(round.index(), item.events(), 1, keys);
    int shards =
        chain != null
            ? 1
            : Math.min(
                Math.max(1, executor.workers() * collective.worldSize() / schedule.devices()),
                batch.size());
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
              s,
              chain,
              microBatch));
      taskTimers.add(new StageTimer().traceTo(trace, item.device(), round.index()));
    }
    long took = System.nanoTime() - sampleStart;
    lastSampleNanos = took;
    runTimer.record(Stage.SAMPLE, sampleStart, took);
    deviceTimers[item.device()].record(Stage.SAMPLE, sampleStart, took);
    span(item.device(), Stage.SAMPLE.key(), sampleStart, took, round.index());
  }

  /**
   * Rows of {@code view} that the next round reads (planned ahead: sampling depends only on the
   * stream), as a mark per node; those writes are hot, the others cold.
   */
  private boolean[] hotRows(int view) {
    boolean[] hot =
        hotMarks.computeIfAbsent(view, v -> new boolean[session.run().events().nodeCount()]);
    Planned next = prefetched;
    if (next != null) {
      for (DeviceStep.Task t : next.tasks()) {
        if (t.view() == view && t.graph().reads() != null) {
          for (int node : t.graph().reads().distinctNodes()) {
            hot[node] = true;
          }
        }
      }
    }
    return hot;
  }

  private void clearHotRows() {
    for (boolean[] marks : hotMarks.values()) {
      java.util.Arrays.fill(marks, false);
    }
  }

  /** What the round cost, for the observer. */
  private RoundCosts costs(RoundPlan round, Planned planned, List<DeviceWrite> writes) {
    List<RoundCosts.TaskCost> tasks = new ArrayList<>();
    for (int t = 0; t < planned.tasks().size(); t++) {
      DeviceStep.Task task = planned.tasks().get(t);
      StageTimer timer = planned.timers().get(t);
      tasks.add(
          new RoundCosts.TaskCost(
              task.device(),
              task.view(),
              task.refinement() != null ? task.microBatch() : -1,
              planned.sampleNanos().get(t),
              timer.nanos(Stage.SYNC),
              timer.nanos(Stage.REFINE),
              timer.nanos(Stage.FETCH),
              timer.nanos(Stage.MEMORY_UPDATE),
              timer.nanos(Stage.MEMORY_WRITE),
              timer.nanos(Stage.TRAIN)));
    }
    long bytes = session.memory() == null ? 0 : criticalWriteBytes;
    RoundCosts c =
        new RoundCosts(
            round.index(),
            round.events(),
            tasks,
            coordinatorNanos.getOrDefault("allReduce", 0L),
            coordinatorNanos.getOrDefault("optimizerStep", 0L),
            coordinatorNanos.getOrDefault("commit", 0L),
            coordinatorNanos.getOrDefault("merge", 0L),
            bytes,
            slowestViewCommitNanos,
            slowestViewMergeNanos,
            mergeBytes,
            prefillCost);
    prefillCost = RoundCosts.Prefill.NONE;
    coordinatorNanos.clear();
    slowestViewCommitNanos = 0;
    slowestViewMergeNanos = 0;
    mergeBytes = 0;
    return c;
  }

  /**
   * Bytes of a write's rows (memory, mails, their ids and times) that land on the critical path:
   * all of them, or with {@code hot} marks only the hot rows.
   */
  private static long bytes(DeviceWrite w, boolean[] hot) {
    MemoryWrite m = w.write();
    long memoryWidth = m.memoryRows().numel() / Math.max(1, m.memoryNodes().length);
    long mailWidth = m.mailRows().numel() / Math.max(1, m.mailNodes().length);
    long rows = 0;
    long mails = 0;
    for (int v : m.memoryNodes()) {
      rows += hot == null || hot[v] ? 1 : 0;
    }
    for (int v : m.mailNodes()) {
      mails += hot == null || hot[v] ? 1 : 0;
    }
    return rows * (4 * memoryWidth + 12) + mails * (4 * mailWidth + 12);
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

  private Void commitWrites(
      List<DeviceWrite> writes, int round, java.util.function.IntFunction<boolean[]> hotRows) {
    java.util.TreeMap<Integer, List<CommitPolicy.ViewWrite>> byView = new java.util.TreeMap<>();
    for (DeviceWrite w : writes) {
      byView
          .computeIfAbsent(w.view(), v -> new ArrayList<>())
          .add(new CommitPolicy.ViewWrite(w.view(), w.write()));
    }
    // one view at a time, timed: on real devices each view commits on its own, in parallel
    for (List<CommitPolicy.ViewWrite> viewWrites : byView.values()) {
      long t0 = System.nanoTime();
      try (StepScope scope = new StepScope()) {
        commit.commit(session.memory(), viewWrites, round, hotRows);
      }
      slowestViewCommitNanos = Math.max(slowestViewCommitNanos, System.nanoTime() - t0);
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
      coordinatorNanos.merge(name, took, Long::sum);
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
    try {
      commit.drain();
    } finally {
      commit.close();
      executor.close();
      collective.close();
    }
  }
}
