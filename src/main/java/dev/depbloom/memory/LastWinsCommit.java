package dev.depbloom.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * TGL's rule at round scale: per view, the round's writes merge as if they were one batch in device
 * order (devices hold consecutive events), the last occurrence of a node winning; each view's
 * merged write is then applied at once.
 */
public final class LastWinsCommit implements CommitPolicy {
  @Override
  public void commit(MemoryStore store, List<ViewWrite> writes) {
    TreeMap<Integer, List<MemoryWrite>> byView = new TreeMap<>();
    for (ViewWrite w : writes) {
      byView.computeIfAbsent(w.view(), v -> new ArrayList<>()).add(w.write());
    }
    for (var e : byView.entrySet()) {
      List<MemoryWrite> parts = e.getValue();
      if (parts.size() == 1) {
        store.apply(e.getKey(), parts.get(0));
      } else {
        try (MemoryWrite merged = MemoryWrite.lastWins(parts)) {
          store.apply(e.getKey(), merged);
        }
      }
    }
  }
}
