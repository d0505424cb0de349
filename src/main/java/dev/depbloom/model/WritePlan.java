package dev.depbloom.model;

import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.MemoryReader;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.sampling.SampledLayer;
import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * What a batch will write, decided from its structure alone (TGL's write rule): the true source and
 * destination of every event, taken in event order {@code s0 d0 s1 d1 ...}, the last occurrence of
 * a node winning; negatives never write. A node's new memory is its updated memory at that
 * occurrence, dated with the event's time; its mail is {@code [memory'_self || memory'_other ||
 * edgeFeature]}.
 *
 * <p>With delivery to neighbors (APAN), the mail an endpoint gets is also delivered to that
 * endpoint's sampled neighbors: for event i in order, src self, dst self, src's neighbors, dst's
 * neighbors, the last mail per receiver winning.
 *
 * <p>Reads index the batch's unique reads ({@link ReadPlan}); events index the batch, {@code
 * 0..B-1}.
 */
public record WritePlan(
    int[] memoryNodes,
    double[] memoryTimes,
    int[] memoryRead,
    int[] memoryEvent,
    int[] mailNodes,
    double[] mailTimes,
    int[] mailSelfRead,
    int[] mailOtherRead,
    int[] mailEvent) {

  /**
   * @param roots the batch's roots {@code [src | dst | negatives]}
   * @param rootTimes their times
   * @param eventCount B
   * @param positionRead the unique read of each root position
   * @param neighbors the first sampled layer (receivers of delivered mail), or null for self only
   */
  static WritePlan of(
      int[] roots, double[] rootTimes, int eventCount, int[] positionRead, SampledLayer neighbors) {
    int b = eventCount;
    LastWins memory = new LastWins(2 * b);
    int extra = neighbors == null ? 0 : neighbors.offsets()[2 * b];
    LastWins mail = new LastWins(2 * b + extra);
    for (int i = 0; i < b; i++) {
      for (int side = 0; side < 2; side++) {
        int self = side * b + i;
        int other = (1 - side) * b + i;
        memory.put(roots[self], rootTimes[self], positionRead[self], positionRead[other], i);
        mail.put(roots[self], rootTimes[self], positionRead[self], positionRead[other], i);
      }
      if (neighbors != null) {
        int[] off = neighbors.offsets();
        int[] nbr = neighbors.nodes();
        for (int side = 0; side < 2; side++) {
          int self = side * b + i;
          int other = (1 - side) * b + i;
          for (int s = off[self]; s < off[self + 1]; s++) {
            mail.put(nbr[s], rootTimes[self], positionRead[self], positionRead[other], i);
          }
        }
      }
    }
    return new WritePlan(
        memory.nodes(),
        memory.times(),
        memory.selfRead(),
        memory.event(),
        mail.nodes(),
        mail.times(),
        mail.selfRead(),
        mail.otherRead(),
        mail.event());
  }

  /**
   * The write as a value: rows of the (detached) updated memory of the batch's unique reads, and
   * mails {@code [memory'_self || memory'_other || edgeFeature]}.
   *
   * @param updatedMemory {@code [U, dim]} from the memory updater
   * @param batchEvents stream index of each of the batch's events (edge features are by event;
   *     every row is stamped with the event it comes from)
   */
  public MemoryWrite toMemoryWrite(
      Tensor updatedMemory, StreamFeatures features, int[] batchEvents) {
    return toMemoryWrite(updatedMemory, features, batchEvents, null);
  }

  /**
   * As {@link #toMemoryWrite(Tensor, StreamFeatures, int[])}; when {@code deltaBase} is not null,
   * each mail carries one more column, its time delta: the mail's time minus its receiver's memory
   * time in {@code deltaBase}, the memory the batch read (memory {@code time_delta: mail}).
   */
  public MemoryWrite toMemoryWrite(
      Tensor updatedMemory, StreamFeatures features, int[] batchEvents, MemoryReader deltaBase) {
    try (NoGradGuard g = new NoGradGuard()) {
      Tensor updated = updatedMemory.detach();
      Tensor rows = updated.index_select(0, Tensors.indices(memoryRead));
      Tensor self = updated.index_select(0, Tensors.indices(mailSelfRead));
      Tensor other = updated.index_select(0, Tensors.indices(mailOtherRead));
      int[] mailEvents = streamIndices(mailEvent, batchEvents);
      Tensor mails;
      if (features.edgeFeatures().dim() > 0) {
        Tensor edge = Tensors.gatherRows(features.edgeFeatures(), mailEvents, mailEvents.length);
        mails = torch.cat(new TensorVector(self, other, edge), 1);
      } else {
        mails = torch.cat(new TensorVector(self, other), 1);
      }
      if (deltaBase != null) {
        mails = torch.cat(new TensorVector(mails, timeDeltas(deltaBase)), 1);
      }
      return new MemoryWrite(
          memoryNodes,
          memoryTimes,
          streamIndices(memoryEvent, batchEvents),
          rows,
          mailNodes,
          mailTimes,
          mailEvents,
          mails);
    }
  }

  /** The stream index of each of {@code positions}, positions among the batch's events. */
  private static int[] streamIndices(int[] positions, int[] batchEvents) {
    int[] out = new int[positions.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = batchEvents[positions[i]];
    }
    return out;
  }

  /** Each mail's time minus its receiver's memory time in {@code memory}: {@code [M, 1]}. */
  private Tensor timeDeltas(MemoryReader memory) {
    float[] delta = new float[mailNodes.length];
    for (int i = 0; i < delta.length; i++) {
      delta[i] = (float) (mailTimes[i] - memory.lastUpdate(mailNodes[i]));
    }
    return Tensors.floats(delta, delta.length, 1);
  }

  /** Keeps the last entry per node, in order of each node's first appearance. */
  private static final class LastWins {
    private final DenseIndex index;
    private int[] self;
    private int[] other;
    private int[] event;
    private double[] time;

    LastWins(int expected) {
      index = new DenseIndex(expected);
      self = new int[Math.max(1, expected)];
      other = new int[self.length];
      event = new int[self.length];
      time = new double[self.length];
    }

    void put(int node, double t, int selfRead, int otherRead, int ev) {
      int k = index.indexOf(node);
      if (k >= self.length) {
        self = Arrays.copyOf(self, k * 2);
        other = Arrays.copyOf(other, k * 2);
        event = Arrays.copyOf(event, k * 2);
        time = Arrays.copyOf(time, k * 2);
      }
      self[k] = selfRead;
      other[k] = otherRead;
      event[k] = ev;
      time[k] = t;
    }

    int[] nodes() {
      return index.keys();
    }

    double[] times() {
      return Arrays.copyOf(time, index.size());
    }

    int[] selfRead() {
      return Arrays.copyOf(self, index.size());
    }

    int[] otherRead() {
      return Arrays.copyOf(other, index.size());
    }

    int[] event() {
      return Arrays.copyOf(event, index.size());
    }
  }
}
