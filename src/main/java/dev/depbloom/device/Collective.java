package dev.depbloom.device;

import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.ViewRows;
import java.util.List;
import org.bytedeco.pytorch.Tensor;

/**
 * What the processes of a run exchange at a round's end (docs/distributed.md, "How it works"): the
 * gradients, the round's loss, and the memory writes. Which process runs a logical device is the
 * schedule's choice ({@code Schedule.rankOf}: {@code d mod worldSize()} unless the schedule needs
 * otherwise); a single process runs them all.
 *
 * <p>Gradients: each entry of {@code local} holds one of this process's work items' gradients, one
 * tensor per parameter in parameter order (null for a parameter the item did not reach), in
 * logical-device order; they are summed in that order, then across processes, so the sum is
 * deterministic.
 */
public interface Collective extends AutoCloseable {
  /**
   * The element-wise sum per parameter over all processes' items, or null where no item has a
   * gradient. The result lives in the caller's tensor scope.
   */
  Tensor[] sum(List<Tensor[]> local, int parameterCount);

  /** The sum of a number over all processes (the round's loss). */
  default double sum(double local) {
    return local;
  }

  /**
   * Every process's memory writes of the round, in logical-device order, so that every process
   * commits the same writes to its copy of the store. The writes of other processes are new values
   * the caller closes; this process's are returned as given.
   */
  default List<DeviceWrite> exchangeWrites(List<DeviceWrite> local) {
    return local;
  }

  /**
   * The shapes of the parameters, in the order {@link #sum} receives their gradients: a process
   * with no gradient for a parameter contributes zeros of its shape (called once, before the first
   * sum).
   */
  default void parameters(List<long[]> shapes) {}

  /**
   * Every process's final rows of the memory views it ran since the last merge, for a merge that
   * needs them all (DepBloom's window end). The rows of other processes are new values the caller
   * closes; this process's are returned as given.
   */
  default List<ViewRows> exchangeRows(List<ViewRows> local) {
    return local;
  }

  /** Every process's {@code local} values (same length on all), concatenated in rank order. */
  default long[] allGather(long[] local) {
    return local.clone();
  }

  /** Names the round the next collectives belong to (in errors that name where a run stopped). */
  default void beginRound(int epoch, int round) {}

  /** Bytes this process has sent to the others so far, of one kind (see {@link Traffic}). */
  default long bytesSent(Traffic kind) {
    return 0;
  }

  /**
   * The end of training: returns once every process has reached it, after which processes may stop
   * without the others taking them for dead.
   */
  default void finish() {}

  /** This process's rank among {@link #worldSize()} processes. */
  default int rank() {
    return 0;
  }

  default int worldSize() {
    return 1;
  }

  @Override
  default void close() {}
}
