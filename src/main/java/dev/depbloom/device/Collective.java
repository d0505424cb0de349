package dev.depbloom.device;

import java.util.List;
import org.bytedeco.pytorch.Tensor;

/**
 * What the processes of a run exchange at a round's end (DESIGN.md section 3): the gradients, the
 * round's loss, and the memory writes. Logical device {@code d} runs in the process of rank {@code
 * d mod worldSize()}; a single process runs them all.
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

  /** Whether this process runs logical device {@code device}. */
  default boolean runs(int device) {
    return device % worldSize() == rank();
  }

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
