package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.step.ReadThrough;
import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;

/**
 * A memory view as it would be after some writes that have not been committed: the reads of
 * DepBloom's intra-batch memory refinement (docs/schedules.md, "Intra-batch memory refinement").
 * Micro-batch {@code j} of a large batch reads through an overlay of the writes of micro-batches
 * {@code 0..j-1} on the view as of the previous round, so it reads exactly what training with batch
 * size {@code B} would have read (TGL's deferred update: the memory updater meets the mail of the
 * node's latest earlier event, built from that micro-batch's updated memories, detached).
 * Micro-batch {@code j} can build its overlay only once micro-batch {@code j - 1} has published its
 * write: refinement is a serial chain of memory updates inside a round, on its critical path (and,
 * on real devices, each write crosses the link to the next micro-batch's device); only embedding,
 * loss and backward run in parallel.
 *
 * <p>Only the nodes the writes touch are copied: a small {@link NodeMemory} of those rows, seeded
 * from the base and updated with the writes in order by {@link NodeMemory#apply} itself, so memory,
 * mailbox rings and times follow exactly the rules of a commit.
 */
final class OverlayMemory implements ReadThrough.Overlay {
  private final NodeMemory base;
  private final Map<Integer, Integer> local = new HashMap<>(); // node -> row of touched
  private final NodeMemory touched;

  /** The base as after applying {@code writes} in order (they stay open; the caller owns them). */
  OverlayMemory(NodeMemory base, List<MemoryWrite> writes) {
    this.base = base;
    for (MemoryWrite w : writes) {
      for (int v : w.memoryNodes()) {
        local.putIfAbsent(v, local.size());
      }
      for (int v : w.mailNodes()) {
        local.putIfAbsent(v, local.size());
      }
    }
    int[] nodes = new int[local.size()];
    local.forEach((v, row) -> nodes[row] = v);
    int[] rows = new int[nodes.length];
    Arrays.setAll(rows, i -> i);
    this.touched =
        new NodeMemory(Math.max(1, nodes.length), base.dim(), base.mailboxSize(), base.mailDim());
    touched.copyRows(base, nodes, rows);
    for (MemoryWrite w : writes) {
      try (MemoryWrite mapped =
          new MemoryWrite(
              rowsOf(w.memoryNodes()),
              w.memoryTimes(),
              w.memoryEvents(),
              w.memoryRows(),
              rowsOf(w.mailNodes()),
              w.mailTimes(),
              w.mailEvents(),
              w.mailRows())) {
        touched.apply(mapped);
      }
    }
  }

  private int[] rowsOf(int[] nodes) {
    int[] out = new int[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      out[i] = local.get(nodes[i]);
    }
    return out;
  }

  /** Number of nodes whose reads differ from the base. */
  public int touchedCount() {
    return local.size();
  }

  @Override
  public int mailboxSize() {
    return base.mailboxSize();
  }

  @Override
  public Tensor readMemory(int[] nodes) {
    return patched(base.readMemory(nodes), nodes, touched::readMemory);
  }

  @Override
  public Tensor readMail(int[] nodes) {
    return patched(base.readMail(nodes), nodes, touched::readMail);
  }

  /** {@code rows} (one per node) with the touched nodes' rows replaced from the overlay. */
  private Tensor patched(Tensor rows, int[] nodes, Function<int[], Tensor> overlayRows) {
    int n = 0;
    for (int v : nodes) {
      if (local.containsKey(v)) {
        n++;
      }
    }
    if (n == 0) {
      return rows;
    }
    int[] positions = new int[n];
    int[] localRows = new int[n];
    for (int i = 0, k = 0; i < nodes.length; i++) {
      Integer row = local.get(nodes[i]);
      if (row != null) {
        positions[k] = i;
        localRows[k++] = row;
      }
    }
    try (NoGradGuard g = new NoGradGuard()) {
      return rows.index_copy_(0, Tensors.indices(positions), overlayRows.apply(localRows));
    }
  }

  @Override
  public double lastUpdate(int v) {
    Integer row = local.get(v);
    return row == null ? base.lastUpdate(v) : touched.lastUpdate(row);
  }

  @Override
  public double mailTime(int v, int slot) {
    Integer row = local.get(v);
    return row == null ? base.mailTime(v, slot) : touched.mailTime(row, slot);
  }

  @Override
  public void close() {
    touched.close();
  }
}
