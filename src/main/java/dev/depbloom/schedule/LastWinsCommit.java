package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntFunction;

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
  public void commit(
      MemoryStore store, List<ViewWrite> writes, int round, IntFunction<boolean[]> hotRows) {
    for (var e : byView(writes).entrySet()) {
      for (MemoryWrite w : perView(e.getValue(), inOrder)) {
        try (w) {
          store.apply(e.getKey(), w, round);
        }
      }
    }
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

  /** The writes grouped by view, views in increasing order, writes in device order. */
  public static TreeMap<Integer, List<MemoryWrite>> byView(List<ViewWrite> writes) {
    TreeMap<Integer, List<MemoryWrite>> byView = new TreeMap<>();
    for (ViewWrite w : writes) {
      byView.computeIfAbsent(w.view(), v -> new ArrayList<>()).add(w.write());
    }
    return byView;
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
