package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.step.DeviceStep;
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
 * the merge's, and the prefills.
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

  /** Times coordinator work on the run timer and as a span of the coordinator's track. */
  public <T> T coordinator(Stage stage, String name, int round, Supplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } finally {
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

  /** One view's commit took {@code nanos} and put {@code bytes} on the critical path. */
  void viewCommitted(long nanos, long bytes) {
    slowestViewCommitNanos = Math.max(slowestViewCommitNanos, nanos);
    criticalWriteBytes += bytes;
  }

  /** A merge of a group of views: memory groups merge on their own devices, in parallel. */
  void merged(MemoryStore.MergeCost cost) {
    for (int v = 0; v < cost.viewNanos().length; v++) {
      slowestViewMergeNanos = Math.max(slowestViewMergeNanos, cost.viewNanos()[v]);
      mergeBytes = Math.max(mergeBytes, cost.viewBytes()[v]);
    }
  }

  /** A prefill took {@code nanos} and handed {@code bytes} over {@code handoffs} times. */
  void prefilled(long nanos, long bytes, int handoffs) {
    prefillCost = prefillCost.plus(nanos, bytes, handoffs);
  }

  /**
   * What the round of {@code planned} cost, for the observer ({@code memory}: whether the model has
   * memory to write); starts the next round's accounting.
   */
  RoundCosts costs(PlannedRound planned, boolean memory) {
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
            prefillCost);
    prefillCost = RoundCosts.Prefill.NONE;
    coordinatorNanos.clear();
    slowestViewCommitNanos = 0;
    slowestViewMergeNanos = 0;
    mergeBytes = 0;
    return c;
  }
}
