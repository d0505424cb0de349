package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.schedule.CommitPolicy;
import dev.depbloom.schedule.LastWinsCommit;
import dev.depbloom.schedule.PlannedRound;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * DepBloom's critical-path commit (docs/schedules.md, "Critical path"; Zhao et al., arXiv
 * 2610.15730): the next round is planned (sampled) while the current one trains ({@link
 * #plansAhead}), and since sampling depends only on the stream its reads are known before the
 * current round commits. Per view, the round's merged write is split into <em>hot</em> rows — read
 * by the view's next round — applied before the round ends, and <em>cold</em> rows, announced to
 * the store at once and applied by a committer thread off the critical path. A later read of a cold
 * row waits in {@link MemoryStore#awaitReadable} until it has landed, and a later write to it waits
 * in {@link MemoryStore#apply}, so a cold write always lands before its next read.
 */
public final class CriticalPathCommit implements CommitPolicy {
  private final ExecutorService committer =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "depbloom-cold-commit");
            t.setDaemon(true);
            return t;
          });
  private final long delayMillis;
  private final boolean inOrder;
  private final List<Future<?>> inFlight = new ArrayList<>();
  private final Map<Integer, boolean[]> hotMarks = new HashMap<>(); // view -> [N], per commit
  private long hotRows;
  private long coldRows;

  /** Merging the round's writes per view, or ({@code inOrder}) one after the other. */
  public CriticalPathCommit(boolean inOrder) {
    this(inOrder, 0);
  }

  /** With every cold commit delayed by {@code delayMillis} (tests of the ordering guarantee). */
  public CriticalPathCommit(boolean inOrder, long delayMillis) {
    this.inOrder = inOrder;
    this.delayMillis = delayMillis;
  }

  @Override
  public boolean plansAhead() {
    return true;
  }

  @Override
  public long commit(
      MemoryStore store, int view, List<MemoryWrite> writes, int round, PlannedRound next) {
    boolean[] hot = next == null ? null : hotRows(store, view, next);
    try {
      for (MemoryWrite merged : LastWinsCommit.perView(writes, inOrder)) {
        commit(store, view, merged, hot, round);
      }
      reapFinished();
      long bytes = 0;
      for (MemoryWrite w : writes) {
        bytes += w.rowBytes(hot);
      }
      return bytes;
    } finally {
      if (hot != null) {
        Arrays.fill(hot, false);
      }
    }
  }

  /** Rows of {@code view} that the next round reads, as a mark per node: those writes are hot. */
  private boolean[] hotRows(MemoryStore store, int view, PlannedRound next) {
    boolean[] hot = hotMarks.computeIfAbsent(view, v -> new boolean[store.view(view).nodeCount()]);
    next.markReads(view, hot);
    return hot;
  }

  /** Applies the hot part of one write now and hands its cold part to the committer. */
  private void commit(MemoryStore store, int view, MemoryWrite write, boolean[] hot, int round) {
    try (MemoryWrite merged = write) {
      if (hot == null) {
        store.apply(view, merged, round);
        this.hotRows += merged.memoryNodes().length;
        return;
      }
      MemoryWrite[] parts = merged.partition(hot);
      try (MemoryWrite now = parts[0]) {
        store.apply(view, now, round);
      }
      this.hotRows += parts[0].memoryNodes().length;
      this.coldRows += parts[1].memoryNodes().length;
      MemoryStore.PendingWrite later = store.announce(view, parts[1]);
      inFlight.add(
          committer.submit(
              () -> {
                try (MemoryWrite cold = parts[1]) {
                  if (delayMillis > 0) {
                    Thread.sleep(delayMillis);
                  }
                  store.commit(later);
                }
                return null;
              }));
    }
  }

  /** Forgets the cold commits that have landed, failing if one of them failed. */
  private void reapFinished() {
    for (var it = inFlight.iterator(); it.hasNext(); ) {
      Future<?> f = it.next();
      if (f.isDone()) {
        await(f);
        it.remove();
      }
    }
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("a cold memory commit failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for cold commits", e);
    }
  }

  /** Memory rows committed on the critical path so far. */
  public long hotRowCount() {
    return hotRows;
  }

  /** Memory rows committed off the critical path so far. */
  public long coldRowCount() {
    return coldRows;
  }

  @Override
  public void drain() {
    try {
      for (Future<?> f : inFlight) {
        await(f);
      }
    } finally {
      inFlight.clear();
    }
  }

  @Override
  public void close() {
    committer.shutdownNow();
  }
}
