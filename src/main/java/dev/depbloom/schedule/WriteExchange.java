package dev.depbloom.schedule;

import dev.depbloom.device.Collective;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryStore;
import java.util.List;

/**
 * How memory crosses the processes of a run (docs/distributed.md, "How it works"): every round's
 * writes ({@link EveryRoundExchange}), or, for a schedule whose views stay on one rank between
 * merges, each view's final rows at its merge ({@code schedule.depbloom.WindowEndExchange}). One
 * process exchanges nothing: its collective hands its writes back.
 */
public interface WriteExchange {
  /** What an exchange works with: the store, the collective, the commit, the round's events. */
  record Context(
      MemoryStore memory, Collective collective, CommitPolicy commit, RoundEvents events) {}

  /**
   * The writes this process commits for round {@code round}: every process's, in device order (the
   * other processes' are new values the caller closes), or only its own.
   */
  List<DeviceWrite> writesToCommit(List<DeviceWrite> local, int round, Context context);

  /**
   * Before the views that merge after {@code round} merge: makes every process's copies of them
   * equal, if the round's writes did not.
   */
  default void beforeMerge(RoundPlan round, Context context) {}

  /** View {@code view} starts over (its memory is reset). */
  default void reset(int view) {}

  /** Whether memory crosses processes only where views merge. */
  default boolean atMerges() {
    return false;
  }
}
