package dev.depbloom.memory;

import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

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

  /**
   * One write equal to applying {@code parts} in order as a single batch: per node the last part's
   * memory and mail win, as the last occurrence in a batch does. The parts stay open (their owner
   * closes them); the result owns new tensors.
   */
  public static MemoryWrite lastWins(List<MemoryWrite> parts) {
    LinkedHashMap<Integer, Integer> memoryRow = new LinkedHashMap<>();
    LinkedHashMap<Integer, Integer> mailRow = new LinkedHashMap<>();
    List<Tensor> memoryRows = new ArrayList<>();
    List<Tensor> mailRows = new ArrayList<>();
    List<Double> memoryTimeList = new ArrayList<>();
    List<Double> mailTimeList = new ArrayList<>();
    for (MemoryWrite w : parts) {
      for (int i = 0; i < w.memoryNodes.length; i++) {
        memoryRow.put(w.memoryNodes[i], memoryTimeList.size());
        memoryTimeList.add(w.memoryTimes[i]);
      }
      for (int i = 0; i < w.mailNodes.length; i++) {
        mailRow.put(w.mailNodes[i], mailTimeList.size());
        mailTimeList.add(w.mailTimes[i]);
      }
      memoryRows.add(w.memoryRows);
      mailRows.add(w.mailRows);
    }
    int[] memoryNodes = keys(memoryRow);
    int[] memoryPick = values(memoryRow);
    int[] mailNodes = keys(mailRow);
    int[] mailPick = values(mailRow);
    double[] memoryTimes = new double[memoryNodes.length];
    for (int i = 0; i < memoryTimes.length; i++) {
      memoryTimes[i] = memoryTimeList.get(memoryPick[i]);
    }
    double[] mailTimes = new double[mailNodes.length];
    for (int i = 0; i < mailTimes.length; i++) {
      mailTimes[i] = mailTimeList.get(mailPick[i]);
    }
    try (NoGradGuard g = new NoGradGuard()) {
      Tensor memory = torch.cat(new TensorVector(memoryRows.toArray(new Tensor[0])), 0);
      Tensor mail = torch.cat(new TensorVector(mailRows.toArray(new Tensor[0])), 0);
      return new MemoryWrite(
          memoryNodes,
          memoryTimes,
          memory.index_select(0, Tensors.indices(memoryPick)),
          mailNodes,
          mailTimes,
          mail.index_select(0, Tensors.indices(mailPick)));
    }
  }

  private static int[] keys(LinkedHashMap<Integer, Integer> m) {
    return m.keySet().stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] values(LinkedHashMap<Integer, Integer> m) {
    return m.values().stream().mapToInt(Integer::intValue).toArray();
  }
}
