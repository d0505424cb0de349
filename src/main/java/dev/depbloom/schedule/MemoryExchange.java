package dev.depbloom.schedule;

import dev.depbloom.device.Collective;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.Stage;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.OpWork;
import dev.depbloom.tensor.StepScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What happens to memory around a round's items: before them, the views that start over are reset
 * and a DepBloom window's prefills replay the earlier chains into the later chains' views; after
 * them, the round's writes reach every process ({@link WriteExchange}) and the store (the {@link
 * CommitPolicy}, one view at a time), and the views a round ends are merged. What a prefill and a
 * merge do is the schedule's {@link WindowMemory}; this class orders, times and records them.
 */
final class MemoryExchange implements AutoCloseable {
  private final TrainingSession session;
  private final CommitPolicy commit;
  private final WriteExchange exchange;
  private final WindowMemory windows;
  private final WriteExchange.Context context;
  private final RoundRecorder recorder;

  MemoryExchange(
      TrainingSession session,
      Collective collective,
      CommitPolicy commit,
      WriteExchange exchange,
      WindowMemory windows,
      RoundRecorder recorder) {
    this.session = session;
    this.commit = commit;
    this.exchange = exchange;
    this.windows = windows;
    this.recorder = recorder;
    this.context = new WriteExchange.Context(session.memory(), collective, commit, recorder);
  }

  /** Whether the commit needs each round planned while the previous one trains. */
  boolean plansAhead() {
    return commit.plansAhead();
  }

  /** Before round {@code round}'s items: resets, then prefills. */
  void startRound(RoundPlan round, int epoch) {
    for (int v : round.resetViews()) {
      commit.drain();
      session.resetView(v);
      exchange.reset(v);
    }
    for (RoundPlan.Prefill f : round.prefills()) {
      prefill(f, round, epoch);
    }
  }

  /**
   * Runs one prefill ({@link RoundPlan.Prefill}) on this thread through the schedule's {@link
   * WindowMemory}, timed as the {@code prefill} stage. Every process runs every prefill of the
   * round.
   */
  private void prefill(RoundPlan.Prefill f, RoundPlan round, int epoch) {
    commit.drain();
    long t0 = System.nanoTime();
    OpWork[] work = new OpWork[1];
    long bytes = recorder.recorded(() -> windows.prefill(f, round, epoch, session), work);
    long took = System.nanoTime() - t0;
    recorder.runTimer().record(Stage.PREFILL, t0, took);
    recorder.span(ChromeTrace.COORDINATOR, Stage.PREFILL.key(), t0, took, round.index());
    recorder.prefilled(f.views(), took, bytes, f.views().size() - 2, work[0]);
  }

  /**
   * Exchanges the round's writes with the other processes, commits them, merges at a window's end.
   * {@code next} is the next round (null: none) and {@code nextPlanned} its plan, if it was planned
   * ahead.
   */
  void commitRound(
      RoundPlan round, RoundPlan next, PlannedRound nextPlanned, List<DeviceWrite> writes) {
    List<DeviceWrite> all = exchange.writesToCommit(writes, round.index(), context);
    boolean allHot = next == null || round.mergeViews() || !next.resetViews().isEmpty();
    try {
      recorder.commitStarted();
      recorder.coordinator(
          Stage.MEMORY_WRITE,
          "commit",
          round.index(),
          () -> commitWrites(all, round.index(), allHot ? null : nextPlanned));
    } finally {
      for (DeviceWrite w : all) {
        if (!writes.contains(w)) {
          w.close(); // another process's write, received for this round
        }
      }
    }
    if (round.mergeViews()) {
      exchange.beforeMerge(round, context);
      recorder.coordinator(
          Stage.MEMORY_WRITE,
          "merge",
          round.index(),
          () -> {
            commit.drain();
            for (List<Integer> group : round.merges()) {
              recorder.merged(group, windows.merge(group, session.memory()));
            }
            return null;
          });
    }
  }

  /** One view at a time, timed: on real devices each view commits on its own, in parallel. */
  private Void commitWrites(List<DeviceWrite> writes, int round, PlannedRound next) {
    Map<Integer, List<MemoryWrite>> byView = new TreeMap<>();
    for (DeviceWrite w : writes) {
      byView.computeIfAbsent(w.view(), v -> new ArrayList<>()).add(w.write());
    }
    for (Map.Entry<Integer, List<MemoryWrite>> e : byView.entrySet()) {
      long t0 = System.nanoTime();
      long critical;
      OpWork[] work = new OpWork[1];
      try (StepScope scope = new StepScope()) {
        critical =
            recorder.recorded(
                () -> commit.commit(session.memory(), e.getKey(), e.getValue(), round, next), work);
      }
      long total = 0;
      for (MemoryWrite w : e.getValue()) {
        total += w.rowBytes(null);
      }
      recorder.viewCommitted(e.getKey(), System.nanoTime() - t0, critical, total, work[0]);
    }
    return null;
  }

  /** Waits until every memory write committed so far has landed (before reading the store). */
  void drain() {
    commit.drain();
  }

  @Override
  public void close() {
    try {
      commit.drain();
    } finally {
      commit.close();
    }
  }
}
