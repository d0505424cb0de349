package dev.depbloom.memory;

import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.Tensor;

/**
 * What one batch writes to node memory, as a value: new memory rows for the true endpoints (last
 * occurrence per node), and mails for their receivers. The model builds it; {@link
 * NodeMemory#apply} applies it. It owns its tensors (detached, kept past the step's scope) until
 * {@link #close()}, so a schedule may apply it later or in parts.
 *
 * @param memoryNodes nodes whose memory is replaced, distinct, {@code [W]}
 * @param memoryTimes the time each new memory is dated, {@code [W]}
 * @param memoryRows the new memory, {@code [W, dim]}
 * @param mailNodes nodes receiving a mail, distinct, {@code [M]}
 * @param mailTimes the time of each mail, {@code [M]}
 * @param mailRows the mails, {@code [M, mailDim]}
 */
public record MemoryWrite(
    int[] memoryNodes,
    double[] memoryTimes,
    Tensor memoryRows,
    int[] mailNodes,
    double[] mailTimes,
    Tensor mailRows)
    implements AutoCloseable {

  public MemoryWrite {
    if (memoryNodes.length != memoryTimes.length || mailNodes.length != mailTimes.length) {
      throw new IllegalArgumentException("node and time columns of a memory write differ");
    }
    if (memoryRows.size(0) != memoryNodes.length || mailRows.size(0) != mailNodes.length) {
      throw new IllegalArgumentException("tensor rows of a memory write do not match its nodes");
    }
    Tensors.retain(memoryRows);
    Tensors.retain(mailRows);
  }

  @Override
  public void close() {
    Tensors.release(memoryRows);
    Tensors.release(mailRows);
  }
}
