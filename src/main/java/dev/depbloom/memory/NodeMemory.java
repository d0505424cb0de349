package dev.depbloom.memory;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Host-resident node memory and mailbox (TGL's MailBox): memory {@code [N, dim]} with the time it
 * was last updated, and a ring buffer of {@code m} mails per node {@code [N * m, mailDim]} with
 * their times. Nodes that never received mail read zero mails dated 0, as in TGL.
 *
 * <p>Invariant: a node's memory time never moves backwards ({@link #apply} checks it).
 */
public final class NodeMemory implements MemoryReader, AutoCloseable {
  private final int nodeCount;
  private final int dim;
  private final int mailboxSize;
  private final int mailDim;
  private final Tensor memory; // [N, dim]
  private final Tensor mailbox; // [N * m, mailDim], row node * m + slot
  private final double[] lastUpdate; // [N]
  private final double[] mailTimes; // [N * m]
  private final int[] nextSlot; // [N]

  public NodeMemory(int nodeCount, int dim, int mailboxSize, int mailDim) {
    this.nodeCount = nodeCount;
    this.dim = dim;
    this.mailboxSize = mailboxSize;
    this.mailDim = mailDim;
    this.memory = Tensors.retain(torch.zeros(nodeCount, dim));
    this.mailbox = Tensors.retain(torch.zeros((long) nodeCount * mailboxSize, mailDim));
    this.lastUpdate = new double[nodeCount];
    this.mailTimes = new double[nodeCount * mailboxSize];
    this.nextSlot = new int[nodeCount];
  }

  public int nodeCount() {
    return nodeCount;
  }

  public int dim() {
    return dim;
  }

  @Override
  public int mailboxSize() {
    return mailboxSize;
  }

  public int mailDim() {
    return mailDim;
  }

  @Override
  public Tensor readMemory(int[] nodes) {
    return readMemory(Tensors.indices(nodes));
  }

  @Override
  public Tensor readMail(int[] nodes) {
    return readMail(Tensors.indices(nodes));
  }

  /** Memory rows of the given nodes: {@code [count, dim]}, a copy. */
  public Tensor readMemory(Tensor nodes) {
    return memory.index_select(0, nodes);
  }

  /** Mailboxes of the given nodes: {@code [count, m, mailDim]}, a copy. */
  public Tensor readMail(Tensor nodes) {
    return mailbox
        .view(nodeCount, (long) mailboxSize * mailDim)
        .index_select(0, nodes)
        .view(-1, mailboxSize, mailDim);
  }

  @Override
  public double lastUpdate(int v) {
    return lastUpdate[v];
  }

  @Override
  public double mailTime(int v, int slot) {
    return mailTimes[v * mailboxSize + slot];
  }

  /** Applies a write: memory rows and times, then mails into each receiver's next ring slot. */
  public void apply(MemoryWrite write) {
    int[] nodes = write.memoryNodes();
    double[] times = write.memoryTimes();
    for (int i = 0; i < nodes.length; i++) {
      if (times[i] < lastUpdate[nodes[i]]) {
        throw new IllegalStateException(
            "memory time of node "
                + nodes[i]
                + " would move backwards: "
                + lastUpdate[nodes[i]]
                + " -> "
                + times[i]);
      }
    }
    int[] mailNodes = write.mailNodes();
    int[] mailRowIds = new int[mailNodes.length];
    for (int i = 0; i < mailNodes.length; i++) {
      int v = mailNodes[i];
      mailRowIds[i] = v * mailboxSize + nextSlot[v];
    }
    try (NoGradGuard g = new NoGradGuard()) {
      if (nodes.length > 0) {
        memory.index_copy_(0, Tensors.indices(nodes), write.memoryRows());
      }
      if (mailNodes.length > 0) {
        mailbox.index_copy_(0, Tensors.indices(mailRowIds), write.mailRows());
      }
    }
    for (int i = 0; i < nodes.length; i++) {
      lastUpdate[nodes[i]] = times[i];
    }
    double[] mt = write.mailTimes();
    for (int i = 0; i < mailNodes.length; i++) {
      int v = mailNodes[i];
      mailTimes[mailRowIds[i]] = mt[i];
      nextSlot[v] = (nextSlot[v] + 1) % mailboxSize;
    }
  }

  /**
   * Copies whole rows — memory with its time, the mailbox ring with its mail times and next slot —
   * of nodes {@code fromNodes} of {@code from} into rows {@code toNodes} of this memory (same
   * widths). The window-end merge of DepBloom's views and the refinement overlay use it.
   */
  public void copyRows(NodeMemory from, int[] fromNodes, int[] toNodes) {
    copyMemoryRows(from, fromNodes, toNodes);
    copyMailRows(from, fromNodes, toNodes);
  }

  /** Copies memory rows and their times only (see {@link #copyRows}). */
  public void copyMemoryRows(NodeMemory from, int[] fromNodes, int[] toNodes) {
    if (fromNodes.length != toNodes.length) {
      throw new IllegalArgumentException("row lists of different lengths");
    }
    if (fromNodes.length == 0) {
      return;
    }
    try (NoGradGuard g = new NoGradGuard()) {
      memory.index_copy_(0, Tensors.indices(toNodes), from.readMemory(fromNodes));
    }
    for (int i = 0; i < toNodes.length; i++) {
      lastUpdate[toNodes[i]] = from.lastUpdate[fromNodes[i]];
    }
  }

  /** Copies mailbox rings with their mail times and next slots only (see {@link #copyRows}). */
  public void copyMailRows(NodeMemory from, int[] fromNodes, int[] toNodes) {
    if (fromNodes.length != toNodes.length) {
      throw new IllegalArgumentException("row lists of different lengths");
    }
    if (fromNodes.length == 0) {
      return;
    }
    try (NoGradGuard g = new NoGradGuard()) {
      mailbox
          .view(nodeCount, (long) mailboxSize * mailDim)
          .index_copy_(
              0,
              Tensors.indices(toNodes),
              from.readMail(fromNodes).view(fromNodes.length, (long) mailboxSize * mailDim));
    }
    for (int i = 0; i < toNodes.length; i++) {
      int v = toNodes[i];
      int u = fromNodes[i];
      System.arraycopy(from.mailTimes, u * mailboxSize, mailTimes, v * mailboxSize, mailboxSize);
      nextSlot[v] = from.nextSlot[u];
    }
  }

  /** The latest time of any mail of node v (0 without mail). */
  public double latestMailTime(int v) {
    double t = 0;
    for (int s = 0; s < mailboxSize; s++) {
      t = Math.max(t, mailTimes[v * mailboxSize + s]);
    }
    return t;
  }

  /** Forgets everything: zero memory and mail, times 0 (start of an epoch, or before testing). */
  public void reset() {
    try (NoGradGuard g = new NoGradGuard()) {
      memory.zero_();
      mailbox.zero_();
    }
    Arrays.fill(lastUpdate, 0);
    Arrays.fill(mailTimes, 0);
    Arrays.fill(nextSlot, 0);
  }

  /** The memory tensor itself, for checkpoints and tests; callers must not keep it. */
  public Tensor memoryTensor() {
    return memory;
  }

  /** The mailbox tensor {@code [N * m, mailDim]}, for checkpoints and tests. */
  public Tensor mailboxTensor() {
    return mailbox;
  }

  /** Copies of the time columns and ring positions, for checkpoints. */
  public double[] lastUpdateTimes() {
    return lastUpdate.clone();
  }

  public double[] mailTimeValues() {
    return mailTimes.clone();
  }

  public int[] nextSlots() {
    return nextSlot.clone();
  }

  /**
   * The memory of nodes {@code 0..rows-1}, row-major {@code [rows * dim]}, and (with {@code mail})
   * their mailboxes {@code [rows * m * mailDim]}: plain values for a snapshot.
   */
  public float[] values(int rows, boolean mail) {
    try (StepScope scope = new StepScope()) {
      Tensor t = mail ? mailbox.narrow(0, 0, (long) rows * mailboxSize) : memory.narrow(0, 0, rows);
      return Tensors.toFloats(t);
    }
  }

  /**
   * Restores the memory and mailboxes of nodes {@code 0..rows-1} from {@link #values} of a memory
   * of the same widths; other rows are untouched.
   */
  public void restoreValues(int rows, float[] memoryValues, float[] mailValues) {
    if (memoryValues.length != (long) rows * dim
        || mailValues.length != (long) rows * mailboxSize * mailDim) {
      throw new IllegalArgumentException("saved memory values do not match " + rows + " rows");
    }
    try (StepScope scope = new StepScope();
        NoGradGuard g = new NoGradGuard()) {
      memory.narrow(0, 0, rows).copy_(Tensors.floats(memoryValues, rows, dim));
      mailbox
          .narrow(0, 0, (long) rows * mailboxSize)
          .copy_(Tensors.floats(mailValues, (long) rows * mailboxSize, mailDim));
    }
  }

  /** Restores time columns and ring positions saved from a memory of the same shape. */
  public void restoreTimes(double[] lastUpdateTimes, double[] mailTimeValues, int[] slots) {
    if (lastUpdateTimes.length != nodeCount
        || mailTimeValues.length != mailTimes.length
        || slots.length != nodeCount) {
      throw new IllegalArgumentException("saved memory times do not match this memory's shape");
    }
    System.arraycopy(lastUpdateTimes, 0, lastUpdate, 0, nodeCount);
    System.arraycopy(mailTimeValues, 0, mailTimes, 0, mailTimes.length);
    System.arraycopy(slots, 0, nextSlot, 0, nodeCount);
  }

  @Override
  public void close() {
    Tensors.release(memory);
    Tensors.release(mailbox);
  }
}
