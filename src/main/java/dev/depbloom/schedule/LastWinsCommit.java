package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import java.util.ArrayList;
import java.util.List;

/**
 * TGL's rule at round scale: per view, the round's writes merge as if they were one batch in device
 * order (devices hold consecutive events), the last occurrence of a node winning — DistTGL's
 * mini-batch parallelism — or, {@code inOrder}, are applied one after the other in device order, as
 * consecutive batches would be (refined micro-batches: a node then gets one mail per micro-batch,
 * as with batch size B). Everything lands before the round ends.
 */
public final class LastWinsCommit implements CommitPolicy {
  private final boolean inOrder;

  /** Merging the round's writes per view. */
  public LastWinsCommit() {
    this(false);
  }

  public LastWinsCommit(boolean inOrder) {
    this.inOrder = inOrder;
  }

  @Override
  public long commit(
      MemoryStore store, int view, List<MemoryWrite> writes, int round, PlannedRound next) {
    for (MemoryWrite w : perView(writes, inOrder)) {
      try (w) {
        store.apply(view, w, round);
      }
    }
    long bytes = 0;
    for (MemoryWrite w : writes) {
      bytes += w.rowBytes(null);
    }
    return bytes;
  }

  /**
   * What one view applies, in order: the merged write, or each write ({@code inOrder}); values the
   * caller closes, the parts stay open.
   */
  public static List<MemoryWrite> perView(List<MemoryWrite> parts, boolean inOrder) {
    if (!inOrder) {
      return List.of(merged(parts));
    }
    List<MemoryWrite> out = new ArrayList<>(parts.size());
    for (MemoryWrite w : parts) {
      out.add(merged(List.of(w)));
    }
    return out;
  }

  /** One view's writes as one (a value the caller closes; the parts stay open). */
  static MemoryWrite merged(List<MemoryWrite> parts) {
    if (parts.size() > 1) {
      return MemoryWrite.lastWins(parts);
    }
    MemoryWrite w = parts.get(0); // a second handle on the same tensors
    return new MemoryWrite(
        w.memoryNodes(),
        w.memoryTimes(),
        w.memoryEvents(),
        w.memoryRows(),
        w.mailNodes(),
        w.mailTimes(),
        w.mailEvents(),
        w.mailRows());
  }
}
