package dev.depbloom.tensor;

import org.bytedeco.openblas.global.openblas_full;
import org.bytedeco.pytorch.global.torch;

/**
 * The process-wide tensor engine: loads the libtorch natives once and sets the thread budget. A CPU
 * build never loads the CUDA natives (that crashes a JVM without CUDA). Training runs on the CPU in
 * this build; {@link #cudaAvailable()} reports whether a GPU build sees a device.
 */
public final class TensorRuntime {
  private static volatile ThreadBudget applied;

  private TensorRuntime() {}

  /** Sets both thread pools; call before the first parallel tensor work. */
  public static synchronized void applyThreads(ThreadBudget budget) {
    torch.set_num_threads(budget.intraOp());
    openblas_full.openblas_set_num_threads(budget.blas());
    applied = budget;
  }

  /** The budget last applied, or null. */
  public static ThreadBudget threads() {
    return applied;
  }

  /** True when this build has CUDA natives and a device is visible. */
  public static boolean cudaAvailable() {
    try {
      return torch.cuda_is_available();
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return false;
    }
  }

  /** Seeds libtorch's default generators (parameter init, dropout). */
  public static void seed(long seed) {
    torch.manual_seed(seed);
  }

  /** Version string of the tensor engine, for run provenance. */
  public static String engineVersion() {
    Package p = torch.class.getPackage();
    String v = p != null ? p.getImplementationVersion() : null;
    return "libtorch via org.bytedeco:pytorch " + (v != null ? v : "2.10.0-1.5.13");
  }
}
