package dev.depbloom.schedule;

/**
 * Receives a round's {@link RoundEvent}s, one method per kind (each a no-op unless overridden), on
 * the coordinating thread, in the order docs/architecture.md ("One round's events") gives. Stage
 * timers, the Chrome trace and the recorded work of a projection are listeners; the round engine
 * knows only this interface.
 */
public interface RoundListener {
  /**
   * Whether the rounds of epoch {@code epoch} record their kernels with their times (each stage's
   * tensor operations: a GPU projection's input). Asked at every round's start; any listener that
   * says yes turns recording on for all.
   */
  default boolean recordsKernels(int epoch) {
    return false;
  }

  default void started(RoundEvent.Started e) {}

  default void sampled(RoundEvent.Sampled e) {}

  default void prefilled(RoundEvent.Prefilled e) {}

  default void taskRan(RoundEvent.TaskRan e) {}

  default void workersJoined(RoundEvent.WorkersJoined e) {}

  default void coordinated(RoundEvent.Coordinated e) {}

  default void viewCommitted(RoundEvent.ViewCommitted e) {}

  default void merged(RoundEvent.Merged e) {}

  default void synced(RoundEvent.Synced e) {}

  default void finished(RoundEvent.Finished e) {}
}
