package dev.depbloom.memory;

import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Function;
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
 * <p>Every row names the event that produced it (its stream index): the window-end merge of
 * DepBloom's views breaks ties between rows of equal time by it ({@link MemoryStore#mergeLatest}).
 *
 * @param memoryNodes nodes whose memory is replaced, distinct, {@code [W]}
 * @param memoryTimes the time each new memory is dated, {@code [W]}
 * @param memoryEvents the stream index of the event each new memory comes from, {@code [W]}
 * @param memoryRows the new memory, {@code [W, dim]}
 * @param mailNodes nodes receiving a mail, distinct, {@code [M]}
 * @param mailTimes the time of each mail, {@code [M]}
 * @param mailEvents the stream index of the event each mail comes from, {@code [M]}
 * @param mailRows the mails, {@code [M, mailDim]}
 */
public record MemoryWrite(
    int[] memoryNodes,
    double[] memoryTimes,
    int[] memoryEvents,
    Tensor memoryRows,
    int[] mailNodes,
    double[] mailTimes,
    int[] mailEvents,
    Tensor mailRows)
    implements AutoCloseable {

  public MemoryWrite {
    if (memoryNodes.length != memoryTimes.length
        || memoryNodes.length != memoryEvents.length
        || mailNodes.length != mailTimes.length
        || mailNodes.length != mailEvents.length) {
      throw new IllegalArgumentException("node, time and event columns of a memory write differ");
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
   * Bytes of this write's rows (memory and mails, with their node ids and times): all of them, or
   * with {@code marked} non-null only the rows of nodes {@code v} with {@code marked[v]}.
   */
  public long rowBytes(boolean[] marked) {
    long memoryWidth = memoryRows.numel() / Math.max(1, memoryNodes.length);
    long mailWidth = mailRows.numel() / Math.max(1, mailNodes.length);
    long rows = 0;
    long mails = 0;
    for (int v : memoryNodes) {
      rows += marked == null || marked[v] ? 1 : 0;
    }
    for (int v : mailNodes) {
      mails += marked == null || marked[v] ? 1 : 0;
    }
    return rows * (4 * memoryWidth + 12) + mails * (4 * mailWidth + 12);
  }

  /**
   * This write split by node: {@code [hot, cold]}, the rows (memory and mail) of nodes {@code v}
   * with {@code hot[v]} and the others. Every row lands in exactly one part; both are new values
   * the caller closes.
   */
  public MemoryWrite[] partition(boolean[] hot) {
    int[][] memory = split(memoryNodes, hot);
    int[][] mail = split(mailNodes, hot);
    try (NoGradGuard g = new NoGradGuard()) {
      MemoryWrite[] out = new MemoryWrite[2];
      for (int side = 0; side < 2; side++) {
        out[side] =
            new MemoryWrite(
                pick(memoryNodes, memory[side]),
                pick(memoryTimes, memory[side]),
                pick(memoryEvents, memory[side]),
                memoryRows.index_select(0, Tensors.indices(memory[side])),
                pick(mailNodes, mail[side]),
                pick(mailTimes, mail[side]),
                pick(mailEvents, mail[side]),
                mailRows.index_select(0, Tensors.indices(mail[side])));
      }
      return out;
    }
  }

  /** Positions of {@code nodes} with {@code hot[node]}, then the others. */
  private static int[][] split(int[] nodes, boolean[] hot) {
    int h = 0;
    for (int v : nodes) {
      if (hot[v]) {
        h++;
      }
    }
    int[][] out = {new int[h], new int[nodes.length - h]};
    int a = 0;
    int b = 0;
    for (int i = 0; i < nodes.length; i++) {
      if (hot[nodes[i]]) {
        out[0][a++] = i;
      } else {
        out[1][b++] = i;
      }
    }
    return out;
  }

  private static int[] pick(int[] values, int[] positions) {
    int[] out = new int[positions.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = values[positions[i]];
    }
    return out;
  }

  private static double[] pick(double[] values, int[] positions) {
    double[] out = new double[positions.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = values[positions[i]];
    }
    return out;
  }

  /**
   * One write equal to applying {@code parts} in order as a single batch: per node the last part's
   * memory and mail win, as the last occurrence in a batch does. The parts stay open (their owner
   * closes them); the result owns new tensors.
   */
  public static MemoryWrite lastWins(List<MemoryWrite> parts) {
    LastPerNode memory =
        LastPerNode.of(
            parts, MemoryWrite::memoryNodes, MemoryWrite::memoryTimes, MemoryWrite::memoryEvents);
    LastPerNode mail =
        LastPerNode.of(
            parts, MemoryWrite::mailNodes, MemoryWrite::mailTimes, MemoryWrite::mailEvents);
    try (NoGradGuard g = new NoGradGuard()) {
      return new MemoryWrite(
          memory.nodes(),
          memory.times(),
          memory.events(),
          memory.pick(parts, MemoryWrite::memoryRows),
          mail.nodes(),
          mail.times(),
          mail.events(),
          mail.pick(parts, MemoryWrite::mailRows));
    }
  }

  /**
   * The last entry per node of one node/time/event column triple of several writes read in order,
   * in order of each node's first appearance, and the row it came from in the writes'
   * concatenation.
   */
  private record LastPerNode(int[] nodes, double[] times, int[] events, int[] rows) {
    static LastPerNode of(
        List<MemoryWrite> parts,
        Function<MemoryWrite, int[]> nodeColumn,
        Function<MemoryWrite, double[]> timeColumn,
        Function<MemoryWrite, int[]> eventColumn) {
      LinkedHashMap<Integer, Integer> rowOfNode = new LinkedHashMap<>();
      List<Double> allTimes = new ArrayList<>();
      List<Integer> allEvents = new ArrayList<>();
      for (MemoryWrite w : parts) {
        int[] nodes = nodeColumn.apply(w);
        double[] times = timeColumn.apply(w);
        int[] events = eventColumn.apply(w);
        for (int i = 0; i < nodes.length; i++) {
          rowOfNode.put(nodes[i], allTimes.size());
          allTimes.add(times[i]);
          allEvents.add(events[i]);
        }
      }
      int[] nodes = rowOfNode.keySet().stream().mapToInt(Integer::intValue).toArray();
      int[] rows = rowOfNode.values().stream().mapToInt(Integer::intValue).toArray();
      double[] times = new double[rows.length];
      int[] events = new int[rows.length];
      for (int i = 0; i < rows.length; i++) {
        times[i] = allTimes.get(rows[i]);
        events[i] = allEvents.get(rows[i]);
      }
      return new LastPerNode(nodes, times, events, rows);
    }

    /** The picked rows of one tensor column of the writes, concatenated in order. */
    Tensor pick(List<MemoryWrite> parts, Function<MemoryWrite, Tensor> column) {
      Tensor[] tensors = parts.stream().map(column).toArray(Tensor[]::new);
      return torch.cat(new TensorVector(tensors), 0).index_select(0, Tensors.indices(rows));
    }
  }
}
