package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.schedule.CommitPolicy;
import dev.depbloom.schedule.LastWinsCommit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * DepBloom's critical-path commit (DESIGN.md sections 1 and 3): per view, the round's merged write
 * is split into <em>hot</em> rows — read by the view's next round, known ahead because sampling
 * depends only on the stream — applied before the round ends, and <em>cold</em> rows, announced to
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
  public void commit(
      MemoryStore store, List<ViewWrite> writes, int round, IntFunction<boolean[]> hotRows) {
    for (var e : LastWinsCommit.byView(writes).entrySet()) {
      int view = e.getKey();
      boolean[] hot = hotRows.apply(view);
      for (MemoryWrite merged : LastWinsCommit.perView(e.getValue(), inOrder)) {
        commit(store, view, merged, hot, round);
      }
    }
    reapFinished();
  }

  /** Applies the hot part of one write now and hands its cold part to the committer. */
  private void commit(MemoryStore store, int view, MemoryWrite write, boolean[] hot, int round) {
    {
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
