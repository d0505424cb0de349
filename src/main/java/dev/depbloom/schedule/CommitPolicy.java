package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import java.util.List;
import java.util.function.IntFunction;

/**
 * How a round's memory writes reach the store (DESIGN.md section 3, round end). Writes come in
 * logical-device order, each with the view it was computed from.
 */
public interface CommitPolicy extends AutoCloseable {
  /** A device's write and the memory view it belongs to. */
  record ViewWrite(int view, MemoryWrite write) {}

  /**
   * Commits round {@code round}'s writes; they stay open (their owner closes them). {@code
   * hotRows.apply(view)} marks, per node, the rows of a view that the view's next round reads, or
   * is null when every row counts as read.
   */
  void commit(MemoryStore store, List<ViewWrite> writes, int round, IntFunction<boolean[]> hotRows);

  /** Returns once every write committed so far has landed in the store. */
  default void drain() {}

  @Override
  default void close() {}
}
