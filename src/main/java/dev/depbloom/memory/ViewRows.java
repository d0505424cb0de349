package dev.depbloom.memory;

import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;

/**
 * Whole rows of one memory view as a value — memory with its time, the mailbox ring with its mail
 * times and next slot — for moving a view's rows between processes (DepBloom's window-end exchange:
 * a chain's final rows reach the processes that did not run it). It owns its tensors until {@link
 * #close()}.
 *
 * @param view the memory view the rows belong to
 * @param nodes the nodes, distinct, {@code [n]}
 * @param memory memory rows {@code [n, dim]}
 * @param memoryTimes each row's last-update time {@code [n]}
 * @param mailbox mailbox rings {@code [n, m, mailDim]}
 * @param mailTimes the ring slots' mail times {@code [n * m]}, node-major
 * @param nextSlots each ring's next slot {@code [n]}
 * @param memoryStamps each memory row's write stamp since the view's last merge, 0 if unwritten
 *     {@code [n]} (the merge's ordering key, {@link MemoryStore#mergeLatest})
 * @param mailStamps each mailbox's write stamp, likewise {@code [n]}
 */
public record ViewRows(
    int view,
    int[] nodes,
    Tensor memory,
    double[] memoryTimes,
    Tensor mailbox,
    double[] mailTimes,
    int[] nextSlots,
    long[] memoryStamps,
    long[] mailStamps)
    implements AutoCloseable {

  public ViewRows {
    int n = nodes.length;
    if (memory.size(0) != n
        || mailbox.size(0) != n
        || memoryTimes.length != n
        || nextSlots.length != n
        || memoryStamps.length != n
        || mailStamps.length != n
        || mailTimes.length != n * mailbox.size(1)) {
      throw new IllegalArgumentException("columns of view rows do not match their " + n + " nodes");
    }
    Tensors.retain(memory);
    Tensors.retain(mailbox);
  }

  /**
   * A copy of rows {@code nodes} of {@code memory} (view {@code view}) with their write stamps
   * ({@link MemoryStore#readRows} reads a store's view with its own).
   */
  public static ViewRows read(
      int view, NodeMemory memory, int[] nodes, long[] memoryStamps, long[] mailStamps) {
    int m = memory.mailboxSize();
    double[] times = new double[nodes.length];
    double[] mailTimes = new double[nodes.length * m];
    int[] slots = new int[nodes.length];
    int[] allSlots = memory.nextSlots();
    for (int i = 0; i < nodes.length; i++) {
      times[i] = memory.lastUpdate(nodes[i]);
      slots[i] = allSlots[nodes[i]];
      for (int s = 0; s < m; s++) {
        mailTimes[i * m + s] = memory.mailTime(nodes[i], s);
      }
    }
    return new ViewRows(
        view,
        nodes.clone(),
        memory.readMemory(nodes),
        times,
        memory.readMail(nodes),
        mailTimes,
        slots,
        memoryStamps.clone(),
        mailStamps.clone());
  }

  /** These rows as a memory of {@code n} nodes (node {@code i} holds row {@code i}). */
  NodeMemory asMemory() {
    int n = nodes.length;
    NodeMemory m =
        new NodeMemory(n, (int) memory.size(1), (int) mailbox.size(1), (int) mailbox.size(2));
    try (NoGradGuard g = new NoGradGuard()) {
      m.memoryTensor().copy_(memory);
      m.mailboxTensor().copy_(mailbox.reshape(-1, mailbox.size(2)));
    }
    m.restoreTimes(memoryTimes, mailTimes, nextSlots);
    return m;
  }

  @Override
  public void close() {
    Tensors.release(memory);
    Tensors.release(mailbox);
  }
}
