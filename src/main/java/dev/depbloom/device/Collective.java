package dev.depbloom.device;

import java.util.List;
import org.bytedeco.pytorch.Tensor;

/**
 * Sums a round's gradients over all logical devices (DESIGN.md section 3, round end). Each entry of
 * {@code local} holds one work item's gradients, one tensor per parameter in parameter order (null
 * for a parameter the item did not reach), in logical-device order; the sum is taken in that order
 * so that it is deterministic. A distributed implementation sums its process's devices this way and
 * then all-reduces across processes.
 */
public interface Collective extends AutoCloseable {
  /**
   * The element-wise sum per parameter, or null where no item has a gradient. The result lives in
   * the caller's tensor scope.
   */
  Tensor[] sum(List<Tensor[]> local, int parameterCount);

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
