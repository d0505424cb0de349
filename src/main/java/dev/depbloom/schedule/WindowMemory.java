package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.step.TrainingSession;
import java.util.List;

/**
 * What a schedule does to its memory views at a window's edges — DepBloom's window-start prefill
 * ({@link RoundPlan.Prefill}) and window-end merge ({@link RoundPlan#merges()}) — handed to the
 * engine as an object, as {@link Refinement} and {@link CommitPolicy} are. The plan says when; this
 * says what; the engine ({@code MemoryExchange}) drains the commits before, times and records both.
 */
public interface WindowMemory {
  /**
   * Runs prefill {@code f} of {@code round} (epoch {@code epoch}) on this thread: each later view
   * of {@code f} takes the rows its predecessor replayed and replays its predecessor's chain.
   * Returns the bytes handed from view to view.
   */
  long prefill(RoundPlan.Prefill f, RoundPlan round, int epoch, TrainingSession session);

  /** Merges the views {@code group} of {@code memory}; returns each view's cost. */
  MemoryStore.MergeCost merge(List<Integer> group, MemoryStore memory);

  /** A schedule without windows: it plans no prefill and no merge, so neither is ever called. */
  WindowMemory NONE =
      new WindowMemory() {
        @Override
        public long prefill(
            RoundPlan.Prefill f, RoundPlan round, int epoch, TrainingSession session) {
          throw new IllegalStateException("a prefill planned by a schedule without windows");
        }

        @Override
        public MemoryStore.MergeCost merge(List<Integer> group, MemoryStore memory) {
          throw new IllegalStateException("a merge planned by a schedule without windows");
        }
      };
}
