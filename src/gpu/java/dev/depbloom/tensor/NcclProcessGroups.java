package dev.depbloom.tensor;

import java.time.Duration;
import org.bytedeco.javacpp.chrono.Milliseconds;
import org.bytedeco.pytorch.Backend;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.nccl.ProcessGroupNCCL;

/**
 * NCCL process groups, compiled only by the {@code gpu} Maven profile (whose natives hold NCCL);
 * {@link C10dBackends#nccl} finds this class by name, so the CPU build never loads it. Collectives
 * on an NCCL group take CUDA tensors.
 */
public final class NcclProcessGroups {
  private NcclProcessGroups() {}

  /** An NCCL group of {@code worldSize} ranks over {@code store}, collectives timing out. */
  public static Backend create(Store store, int rank, int worldSize, Duration timeout) {
    ProcessGroupNCCL.Options options = new ProcessGroupNCCL.Options();
    options.timeout(new Milliseconds(timeout.toMillis()));
    return new ProcessGroupNCCL(store, rank, worldSize, options);
  }
}
