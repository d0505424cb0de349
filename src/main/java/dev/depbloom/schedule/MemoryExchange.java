package dev.depbloom.schedule;

import dev.depbloom.device.Collective;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.observe.Stage;
import dev.depbloom.step.Measured;
import dev.depbloom.step.TrainingSession;
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
 * merge do is the schedule's {@link WindowMemory}; this class orders them and tells the round's
 * listeners ({@link RoundEvents}) what each took.
 */
final class MemoryExchange implements AutoCloseable {
  private final TrainingSession session;
  private final CommitPolicy commit;
  private final WriteExchange exchange;
  private final WindowMemory windows;
  private final WriteExchange.Context context;
  private final RoundEvents events;

  MemoryExchange(
      TrainingSession session,
      Collective collective,
      CommitPolicy commit,
      WriteExchange exchange,
      WindowMemory windows,
      RoundEvents events) {
    this.session = session;
    this.commit = commit;
    this.exchange = exchange;
    this.windows = windows;
    this.events = events;
    this.context = new WriteExchange.Context(session.memory(), collective, commit, events);
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
   * WindowMemory}, measured as a {@link RoundEvent.Prefilled}. Every process runs every prefill of
   * the round.
   */
  private void prefill(RoundPlan.Prefill f, RoundPlan round, int epoch) {
    commit.drain();
    Measured<Long> m = events.measured(() -> windows.prefill(f, round, epoch, session));
    events.emit(
        new RoundEvent.Prefilled(
            round.index(),
            f.views(),
            m.startNanos(),
            m.nanos(),
            m.value(),
            f.views().size() - 2,
            m.work()));
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
      events.coordinator(
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
      events.coordinator(
          Stage.MEMORY_WRITE,
          "merge",
          round.index(),
          () -> {
            commit.drain();
            for (List<Integer> group : round.merges()) {
              events.emit(
                  new RoundEvent.Merged(
                      round.index(), group, windows.merge(group, session.memory())));
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
      Measured<Long> critical;
      try (StepScope scope = new StepScope()) {
        critical =
            events.measured(
                () -> commit.commit(session.memory(), e.getKey(), e.getValue(), round, next));
      }
      long total = 0;
      for (MemoryWrite w : e.getValue()) {
        total += w.rowBytes(null);
      }
      events.emit(
          new RoundEvent.ViewCommitted(
              round,
              e.getKey(),
              System.nanoTime() - critical.startNanos(),
              critical.value(),
              total,
              critical.work()));
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
