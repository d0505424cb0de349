package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.tensor.KernelLog;
import dev.depbloom.tensor.OpRecorder;
import dev.depbloom.tensor.OpRecording;
import dev.depbloom.tensor.OpWork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the rounds cost, as the coordinator sees them: the run-level timer (the coordinating
 * thread's own time), each logical device's timer, the spans of an optional Chrome trace, and the
 * round in flight's costs for a {@link dev.depbloom.observe.RoundObserver} — the coordinator's
 * round-end work by name, the slowest view's commit and merge, the bytes on the critical path and
 * the merge's, and the prefills — and the round's work ({@link RoundWork}: bytes always, and, while
 * {@link #recordWork recording}, the kernels of every stage, of the optimizer step, of each view's
 * commit and of the prefills).
 */
public final class RoundRecorder {
  private final StageTimer runTimer = new StageTimer();
  private final StageTimer[] deviceTimers;
  private ChromeTrace trace; // null: not traced
  // of the round in flight
  private final Map<String, Long> coordinatorNanos = new HashMap<>(); // by span name
  private long slowestViewCommitNanos;
  private long slowestViewMergeNanos;
  private long mergeBytes; // copied into the view that received most
  private long criticalWriteBytes; // committed on the critical path
  private RoundCosts.Prefill prefillCost = RoundCosts.Prefill.NONE;
  private boolean recording; // whether this round's kernels are recorded
  private final Map<String, OpWork> coordinatorWork = new HashMap<>(); // by span name
  private final List<RoundWork.ViewCommit> commits = new ArrayList<>();
  private final List<RoundWork.GroupMerge> merges = new ArrayList<>();
  private final List<RoundWork.GroupPrefill> prefills = new ArrayList<>();

  RoundRecorder(int devices) {
    this.deviceTimers = new StageTimer[devices];
    for (int d = 0; d < devices; d++) {
      deviceTimers[d] = new StageTimer();
    }
  }

  void trace(ChromeTrace trace) {
    this.trace = trace;
  }

  ChromeTrace trace() {
    return trace;
  }

  StageTimer runTimer() {
    return runTimer;
  }

  StageTimer deviceTimer(int device) {
    return deviceTimers[device];
  }

  List<StageTimer> deviceTimers() {
    return List.of(deviceTimers);
  }

  void resetTimers() {
    runTimer.reset();
    for (StageTimer t : deviceTimers) {
      t.reset();
    }
  }

  /** Whether the kernels of the rounds from now on are recorded (a projection's recorded work). */
  void recordWork(boolean on) {
    this.recording = on;
  }

  boolean recordingWork() {
    return recording;
  }

  /**
   * Runs {@code work} on this thread, recording its kernels while {@link #recordWork recording}
   * ({@link OpWork#NONE} otherwise) into {@code into[0]}.
   */
  <T> T recorded(Supplier<T> work, OpWork[] into) {
    if (!recording) {
      into[0] = OpWork.NONE;
      return work.get();
    }
    try (OpRecording r = OpRecorder.startOnThisThread()) {
      T out = work.get();
      into[0] = r.work();
      return out;
    }
  }

  /** Times coordinator work on the run timer and as a span of the coordinator's track. */
  public <T> T coordinator(Stage stage, String name, int round, Supplier<T> work) {
    long t0 = System.nanoTime();
    OpWork[] ops = new OpWork[1];
    try {
      return recorded(work, ops);
    } finally {
      if (ops[0] != null) {
        coordinatorWork.merge(name, ops[0], OpWork::plus);
      }
      long took = System.nanoTime() - t0;
      runTimer.record(stage, t0, took);
      coordinatorNanos.merge(name, took, Long::sum);
      span(ChromeTrace.COORDINATOR, name, t0, took, round);
    }
  }

  void span(int track, String name, long start, long duration, int round) {
    if (trace != null) {
      trace.span(track, name, start, duration, round);
    }
  }

  /** The round's commit begins: its bytes on the critical path are counted afresh. */
  void commitStarted() {
    criticalWriteBytes = 0;
  }

  /**
   * View {@code view}'s commit took {@code nanos}, put {@code criticalBytes} of its {@code
   * totalBytes} on the critical path and ran {@code work} doing so.
   */
  void viewCommitted(int view, long nanos, long criticalBytes, long totalBytes, OpWork work) {
    slowestViewCommitNanos = Math.max(slowestViewCommitNanos, nanos);
    criticalWriteBytes += criticalBytes;
    commits.add(
        new RoundWork.ViewCommit(
            view, work.kernelLog(), criticalBytes, Math.max(0, totalBytes - criticalBytes)));
  }

  /** A merge of a group of views: memory groups merge on their own devices, in parallel. */
  void merged(List<Integer> group, MemoryStore.MergeCost cost) {
    for (int v = 0; v < cost.viewNanos().length; v++) {
      slowestViewMergeNanos = Math.max(slowestViewMergeNanos, cost.viewNanos()[v]);
      mergeBytes = Math.max(mergeBytes, cost.viewBytes()[v]);
    }
    merges.add(new RoundWork.GroupMerge(group, cost.viewBytes().clone()));
  }

  /**
   * A prefill over {@code views} took {@code nanos}, ran {@code work} and handed {@code bytes} over
   * {@code handoffs} times.
   */
  void prefilled(List<Integer> views, long nanos, long bytes, int handoffs, OpWork work) {
    prefillCost = prefillCost.plus(nanos, bytes, handoffs);
    prefills.add(new RoundWork.GroupPrefill(views, work.kernelLog(), bytes, handoffs));
  }

  /**
   * What the round of {@code planned} cost and did, for the observer ({@code memory}: whether the
   * model has memory to write; {@code results}: the tasks' results, in the planned order, with
   * their traffic); starts the next round's accounting.
   */
  RoundCosts costs(
      PlannedRound planned, boolean memory, List<DeviceStep.Result> results, long gradientBytes) {
    List<RoundCosts.TaskCost> tasks = new ArrayList<>();
    for (int t = 0; t < planned.tasks().size(); t++) {
      DeviceStep.Task task = planned.tasks().get(t);
      StageTimer timer = planned.timers().get(t);
      tasks.add(
          new RoundCosts.TaskCost(
              task.device(),
              task.view(),
              task.readThrough().microBatch(),
              planned.sampleNanos().get(t),
              timer.nanos(Stage.SYNC),
              timer.nanos(Stage.REFINE),
              timer.nanos(Stage.FETCH),
              timer.nanos(Stage.MEMORY_UPDATE),
              timer.nanos(Stage.MEMORY_WRITE),
              timer.nanos(Stage.TRAIN)));
    }
    RoundPlan round = planned.round();
    RoundWork work =
        new RoundWork(
            round.index(),
            round.events(),
            items(planned, results),
            coordinatorWork.getOrDefault("optimizerStep", OpWork.NONE).kernelLog(),
            gradientBytes,
            commits,
            merges,
            prefills);
    RoundCosts c =
        new RoundCosts(
            round.index(),
            round.events(),
            tasks,
            coordinatorNanos.getOrDefault("allReduce", 0L),
            coordinatorNanos.getOrDefault("optimizerStep", 0L),
            coordinatorNanos.getOrDefault("commit", 0L),
            coordinatorNanos.getOrDefault("merge", 0L),
            memory ? criticalWriteBytes : 0,
            slowestViewCommitNanos,
            slowestViewMergeNanos,
            mergeBytes,
            prefillCost,
            work);
    prefillCost = RoundCosts.Prefill.NONE;
    coordinatorNanos.clear();
    coordinatorWork.clear();
    commits.clear();
    merges.clear();
    prefills.clear();
    slowestViewCommitNanos = 0;
    slowestViewMergeNanos = 0;
    mergeBytes = 0;
    return c;
  }

  /** Each task's work: its kernels by stage (empty unless recorded) and its traffic. */
  private static List<RoundWork.ItemWork> items(
      PlannedRound planned, List<DeviceStep.Result> results) {
    List<RoundWork.ItemWork> out = new ArrayList<>();
    for (int t = 0; t < planned.tasks().size(); t++) {
      DeviceStep.Task task = planned.tasks().get(t);
      StageTimer timer = planned.timers().get(t);
      DeviceStep.Result r = results.get(t);
      out.add(
          new RoundWork.ItemWork(
              task.device(),
              task.view(),
              task.readThrough().microBatch(),
              planned.sampleNanos().get(t),
              log(timer, Stage.FETCH),
              log(timer, Stage.MEMORY_UPDATE),
              log(timer, Stage.REFINE),
              log(timer, Stage.TRAIN),
              log(timer, Stage.MEMORY_WRITE),
              r.memoryReadBytes(),
              r.inputBytes(),
              r.repeatedEdgeFeatureBytes(),
              r.writeBytes()));
    }
    return out;
  }

  private static KernelLog log(StageTimer timer, Stage stage) {
    return timer.work(stage).kernelLog();
  }
}
