package dev.depbloom.memory;

import java.util.List;

/**
 * How a round's memory writes reach the store (DESIGN.md section 3, round end). Writes come in
 * logical-device order, each with the view it was computed from.
 */
public interface CommitPolicy {
  /** A device's write and the memory view it belongs to. */
  record ViewWrite(int view, MemoryWrite write) {}

  /** Commits the round's writes; they stay open (their owner closes them). */
  void commit(MemoryStore store, List<ViewWrite> writes);
}
