package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import java.util.List;

/**
 * How a round's memory writes reach the store at the round's end (docs/architecture.md, "A round"),
 * one memory view at a time: everything before the round ends ({@link LastWinsCommit}), or the rows
 * the next round reads first and the others off the critical path (DepBloom's {@code
 * schedule.depbloom.CriticalPathCommit}). A policy may hold a committer thread: its owner closes
 * it.
 */
public interface CommitPolicy extends AutoCloseable {
  /**
   * Whether the coordinator plans each round while the previous one trains, so that the commit
   * knows the next round's reads (the critical path's schedule).
   */
  default boolean plansAhead() {
    return false;
  }

  /**
   * Commits the writes of view {@code view} in round {@code round}, in device order; they stay open
   * (their owner closes them). {@code next} is the next round as planned ahead, whose reads of the
   * view are urgent, or null when every row counts as read (no next round planned, or the next one
   * starts after a merge or a reset). Returns the bytes of the writes' rows committed on the
   * critical path.
   */
  long commit(MemoryStore store, int view, List<MemoryWrite> writes, int round, PlannedRound next);

  /** Returns once every write committed so far has landed in the store. */
  default void drain() {}

  @Override
  default void close() {}
}
