package dev.depbloom.step;

import dev.depbloom.memory.MemoryReader;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import java.util.List;

/**
 * A task's link to the earlier tasks of its round whose memory writes it reads through before they
 * are committed: DepBloom's intra-batch memory refinement, where micro-batch {@code j} of a large
 * batch reads the writes of micro-batches {@code 0..j-1} ({@code
 * schedule.depbloom.IntraBatchRefinement}). {@link #NONE} for a task that reads its memory view as
 * it is.
 */
public interface ReadThrough {
  /** A reader of a view as after writes that are not committed yet; closed after the fetch. */
  interface Overlay extends MemoryReader, AutoCloseable {
    @Override
    void close();
  }

  /** No link: the task reads its view as the last commit left it. */
  ReadThrough NONE = (memory, view, round, earlier) -> null;

  /**
   * The writes this task reads through, once the tasks that make them have published them (the wait
   * is the {@code sync} stage); empty when there are none (by default: no other task's).
   */
  default List<MemoryWrite> awaitEarlier() {
    return List.of();
  }

  /**
   * View {@code view} of {@code memory} as after {@code earlier} (the {@code refine} stage), or
   * null when there is nothing to read through; the caller closes it.
   */
  Overlay overlay(MemoryStore memory, int view, int round, List<MemoryWrite> earlier);

  /**
   * This task's memory write, for the later tasks that read through it (it stays the caller's); by
   * default no task does.
   */
  default void publish(MemoryWrite write) {}

  /** This task failed before publishing; the later ones fail with it instead of waiting. */
  default void fail(Throwable cause) {}

  /** The task's index among the micro-batches of other tasks it is linked with, -1 without one. */
  default int microBatch() {
    return -1;
  }
}
