package dev.depbloom.tensor;

import org.bytedeco.javacpp.Pointer;
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

  /**
   * Hands the pages of freed native memory back to the operating system (glibc's {@code
   * malloc_trim(0)}, every arena); returns whether any were. Freed tensors stay with the C
   * allocator: each thread allocates from one of up to 8 arenas per core, a thread's arena shrinks
   * only from its top, and a run's worker and scorer threads are new and land in arenas the last
   * run's did not use, so a process that trains run after run (a comparison's rows) kept every
   * arena's high-water mark resident: 1.9, 2.9 and 4.2 GB after a bench's first three rows with
   * 0.26-0.35 GB in use, 1.1, 1.1 and 1.2 GB with this after each (docs/measurements/
   * converged-local.md, after "Run 5"). Values computed do not change. Call it where a run's
   * tensors have all been freed; the next allocations fault their pages in afresh.
   */
  public static boolean releaseFreedMemory() {
    return Pointer.trimMemory();
  }

  /** Version string of the tensor engine, for run provenance. */
  public static String engineVersion() {
    Package p = torch.class.getPackage();
    String v = p != null ? p.getImplementationVersion() : null;
    return "libtorch via org.bytedeco:pytorch " + (v != null ? v : "2.10.0-1.5.13");
  }
}
