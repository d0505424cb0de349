package dev.depbloom.recording;

import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.observe.Stage;
import dev.depbloom.schedule.PlannedRound;
import dev.depbloom.schedule.RoundEvent;
import dev.depbloom.schedule.RoundListener;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.StageClock;
import dev.depbloom.tensor.KernelLog;
import dev.depbloom.tensor.OpWork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each round's costs for a {@link RoundObserver} (a projection to real devices), gathered from the
 * round's events: per task its stages, the coordinator's round-end work by name, the slowest view's
 * commit and merge, the bytes on the critical path and the merge's, the prefills; and the round's
 * work ({@link RoundWork}: bytes always, and for the rounds of epochs up to {@code
 * recordKernelsUpToEpoch} the kernels of every stage, of the optimizer step, of each view's commit
 * and of the prefills).
 */
public final class RoundCostRecorder implements RoundListener {
  private final RoundObserver observer;
  private final int recordKernelsUpToEpoch;
  // of the round in flight
  private final Map<String, Long> coordinatorNanos = new HashMap<>(); // by span name
  private final Map<String, OpWork> coordinatorWork = new HashMap<>(); // by span name
  private long slowestViewCommitNanos;
  private long slowestViewMergeNanos;
  private long mergeBytes; // copied into the view that received most
  private long criticalWriteBytes; // committed on the critical path
  private RoundCosts.Prefill prefillCost = RoundCosts.Prefill.NONE;
  private final List<RoundWork.ViewCommit> commits = new ArrayList<>();
  private final List<RoundWork.GroupMerge> merges = new ArrayList<>();
  private final List<RoundWork.GroupPrefill> prefills = new ArrayList<>();

  /**
   * Hands every round's costs to {@code observer}, recording the kernels of epochs 1 to {@code
   * recordKernelsUpToEpoch} (0: none). Rounds repeat their shapes from epoch to epoch, so one epoch
   * recorded prices all; recording costs about 6-7% of a TGN item's CPU time
   * (docs/measurements/recorded-work.md).
   */
  public RoundCostRecorder(RoundObserver observer, int recordKernelsUpToEpoch) {
    this.observer = observer;
    this.recordKernelsUpToEpoch = recordKernelsUpToEpoch;
  }

  @Override
  public boolean recordsKernels(int epoch) {
    return epoch <= recordKernelsUpToEpoch;
  }

  @Override
  public void started(RoundEvent.Started e) {
    coordinatorNanos.clear();
    coordinatorWork.clear();
    commits.clear();
    merges.clear();
    prefills.clear();
    slowestViewCommitNanos = 0;
    slowestViewMergeNanos = 0;
    mergeBytes = 0;
    criticalWriteBytes = 0;
    prefillCost = RoundCosts.Prefill.NONE;
  }

  @Override
  public void prefilled(RoundEvent.Prefilled e) {
    prefillCost = prefillCost.plus(e.nanos(), e.bytes(), e.handoffs());
    prefills.add(
        new RoundWork.GroupPrefill(e.views(), e.work().kernelLog(), e.bytes(), e.handoffs()));
  }

  @Override
  public void coordinated(RoundEvent.Coordinated e) {
    coordinatorNanos.merge(e.name(), e.nanos(), Long::sum);
    coordinatorWork.merge(e.name(), e.work(), OpWork::plus);
  }

  @Override
  public void viewCommitted(RoundEvent.ViewCommitted e) {
    slowestViewCommitNanos = Math.max(slowestViewCommitNanos, e.nanos());
    criticalWriteBytes += e.criticalBytes();
    commits.add(
        new RoundWork.ViewCommit(
            e.view(),
            e.work().kernelLog(),
            e.criticalBytes(),
            Math.max(0, e.totalBytes() - e.criticalBytes())));
  }

  /** A merge of a group of views: memory groups merge on their own devices, in parallel. */
  @Override
  public void merged(RoundEvent.Merged e) {
    long[] nanos = e.cost().viewNanos();
    for (int v = 0; v < nanos.length; v++) {
      slowestViewMergeNanos = Math.max(slowestViewMergeNanos, nanos[v]);
      mergeBytes = Math.max(mergeBytes, e.cost().viewBytes()[v]);
    }
    merges.add(new RoundWork.GroupMerge(e.group(), e.cost().viewBytes().clone()));
  }

  @Override
  public void finished(RoundEvent.Finished e) {
    PlannedRound planned = e.planned();
    List<RoundCosts.TaskCost> tasks = new ArrayList<>();
    List<RoundWork.ItemWork> items = new ArrayList<>();
    for (int t = 0; t < planned.tasks().size(); t++) {
      tasks.add(taskCost(planned, t));
      items.add(itemWork(planned, t, e.results().get(t)));
    }
    RoundWork work =
        new RoundWork(
            e.round(),
            planned.round().events(),
            items,
            coordinatorWork.getOrDefault("optimizerStep", OpWork.NONE).kernelLog(),
            e.gradientBytes(),
            commits,
            merges,
            prefills);
    observer.roundFinished(
        new RoundCosts(
            e.round(),
            planned.round().events(),
            tasks,
            coordinatorNanos.getOrDefault("allReduce", 0L),
            coordinatorNanos.getOrDefault("optimizerStep", 0L),
            coordinatorNanos.getOrDefault("commit", 0L),
            coordinatorNanos.getOrDefault("merge", 0L),
            e.memory() ? criticalWriteBytes : 0,
            slowestViewCommitNanos,
            slowestViewMergeNanos,
            mergeBytes,
            prefillCost,
            work));
  }

  /** Task {@code t}'s stage times, as it measured them. */
  private static RoundCosts.TaskCost taskCost(PlannedRound planned, int t) {
    DeviceStep.Task task = planned.tasks().get(t);
    StageClock clock = planned.clocks().get(t);
    return new RoundCosts.TaskCost(
        task.device(),
        task.view(),
        task.readThrough().microBatch(),
        planned.sampleNanos().get(t),
        clock.nanos(Stage.SYNC),
        clock.nanos(Stage.REFINE),
        clock.nanos(Stage.FETCH),
        clock.nanos(Stage.MEMORY_UPDATE),
        clock.nanos(Stage.MEMORY_WRITE),
        clock.nanos(Stage.TRAIN));
  }

  /** Task {@code t}'s work: its kernels by stage (empty unless recorded) and its traffic. */
  private static RoundWork.ItemWork itemWork(PlannedRound planned, int t, DeviceStep.Result r) {
    DeviceStep.Task task = planned.tasks().get(t);
    StageClock clock = planned.clocks().get(t);
    return new RoundWork.ItemWork(
        task.device(),
        task.view(),
        task.readThrough().microBatch(),
        planned.sampleNanos().get(t),
        log(clock, Stage.FETCH),
        log(clock, Stage.MEMORY_UPDATE),
        log(clock, Stage.REFINE),
        log(clock, Stage.TRAIN),
        log(clock, Stage.MEMORY_WRITE),
        r.memoryReadBytes(),
        r.inputBytes(),
        r.repeatedEdgeFeatureBytes(),
        r.writeBytes());
  }

  private static KernelLog log(StageClock clock, Stage stage) {
    return clock.work(stage).kernelLog();
  }
}
