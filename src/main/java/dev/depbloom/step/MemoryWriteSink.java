package dev.depbloom.step;

import dev.depbloom.memory.MemoryWrite;
import java.util.List;

/**
 * Where the memory write of a scored or replayed batch goes: applied to its memory at once ({@link
 * #APPLY}, the test pass), or kept to be applied later (a served batch, applied with its neighbor
 * index under the serving lock). The sink owns the write it receives and closes it.
 */
@FunctionalInterface
public interface MemoryWriteSink {
  /** Applies each write to its memory at once and closes it. */
  MemoryWriteSink APPLY =
      (memory, write) -> {
        try (write) {
          memory.store().apply(memory.view(), write);
        }
      };

  /** Takes {@code write}, the batch's write into {@code memory}. */
  void accept(ScoredMemory memory, MemoryWrite write);

  /**
   * Takes {@code writes[i]}, the write into {@code memories.get(i)}, in order; after a failure the
   * writes not taken are closed.
   */
  default void acceptAll(List<ScoredMemory> memories, MemoryWrite[] writes) {
    int i = 0;
    try {
      for (; i < writes.length; i++) {
        accept(memories.get(i), writes[i]);
      }
    } finally {
      closeFrom(writes, i + 1);
    }
  }

  /** Closes the writes {@code writes[from..]} that are not null. */
  static void closeFrom(MemoryWrite[] writes, int from) {
    for (int j = from; j < writes.length; j++) {
      if (writes[j] != null) {
        writes[j].close();
      }
    }
  }
}
