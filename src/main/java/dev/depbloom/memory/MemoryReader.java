package dev.depbloom.memory;

import org.bytedeco.pytorch.Tensor;

/** What a batch reads of node memory: rows, mailboxes and their times. */
public interface MemoryReader {
  int mailboxSize();

  /** Memory rows of the given nodes: {@code [count, dim]}, a copy. */
  Tensor readMemory(int[] nodes);

  /** Mailboxes of the given nodes: {@code [count, m, mailDim]}, a copy. */
  Tensor readMail(int[] nodes);

  /** Time node v's memory was last written (0 before any write). */
  double lastUpdate(int v);

  /** Time of mail slot s of node v (0 for an empty slot). */
  double mailTime(int v, int slot);
}
