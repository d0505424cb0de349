package dev.depbloom.tensor;

import dev.depbloom.data.InputException;
import java.util.function.IntSupplier;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.MemoryFormatOptional;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;

/**
 * Where one rank of a multi-process run puts its tensors and which c10d backend joins it to the
 * others — the one place this is decided. In the CPU build: the CPU and Gloo, and CUDA is never
 * touched (loading it without a GPU crashes the JVM). In the GPU build ({@code mvn -Pgpu}): {@code
 * cuda:LOCAL_RANK} and NCCL, one GPU per local rank; node memory stays on the host either way. The
 * model replica lives on the device, each batch is built on the host and placed there ({@link
 * #place}), and what returns to the host (memory writes, scores) is copied back ({@link
 * Tensors#host}).
 *
 * @param device the libtorch device name, {@code cpu} or {@code cuda:i}
 * @param backend the process group's backend
 */
public record RankDevice(String device, Backend backend) {
  /** The c10d backends this build can use. */
  public enum Backend {
    GLOO,
    NCCL
  }

  /** A file only the GPU natives hold: its presence tells the builds apart without loading them. */
  static final String GPU_NATIVES = "org/bytedeco/pytorch/linux-x86_64-gpu/libjnitorch_nccl.so";

  public static final RankDevice CPU = new RankDevice("cpu", Backend.GLOO);

  /** Whether this JVM runs the GPU build's natives (looked up as a resource, never loaded). */
  public static boolean gpuBuild() {
    return RankDevice.class.getClassLoader().getResource(GPU_NATIVES) != null;
  }

  /** The device of local rank {@code localRank} in this build. */
  public static RankDevice forLocalRank(int localRank) {
    return choose(localRank, gpuBuild(), () -> (int) torch.cuda_device_count());
  }

  /**
   * The choice: the CPU and Gloo unless {@code gpuBuild}; then {@code cuda:localRank} and NCCL.
   * {@code cudaDevices} is asked only in a GPU build.
   *
   * @throws InputException when a GPU build sees fewer CUDA devices than local ranks
   */
  public static RankDevice choose(int localRank, boolean gpuBuild, IntSupplier cudaDevices) {
    if (!gpuBuild) {
      return CPU;
    }
    int visible = cudaDevices.getAsInt();
    if (localRank >= visible) {
      throw new InputException(
          "LOCAL_RANK="
              + localRank
              + ": the GPU build needs one CUDA device per local rank, and "
              + visible
              + " are visible (CUDA_VISIBLE_DEVICES, or start fewer ranks per node)");
    }
    return new RankDevice("cuda:" + localRank, Backend.NCCL);
  }

  /**
   * This process's device: that of {@code LOCAL_RANK} from the environment (0 when unset, as for a
   * single-process run).
   */
  public static RankDevice forThisProcess() {
    String value = System.getenv("LOCAL_RANK");
    if (value == null || value.isBlank()) {
      return forLocalRank(0);
    }
    try {
      return forLocalRank(Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      throw new InputException("LOCAL_RANK=" + value + ": not a number");
    }
  }

  public boolean cuda() {
    return backend == Backend.NCCL;
  }

  /** Whether tensors stay where the host creates them (the CPU build). */
  public boolean host() {
    return device.equals("cpu");
  }

  /** An uninitialised {@code [rows, dim]} float tensor on this device, in the caller's scope. */
  public Tensor empty(int rows, int dim) {
    return host()
        ? torch.empty(rows, dim)
        : torch.empty(
            new long[] {rows, dim},
            new TensorOptions(new Device(device)),
            new MemoryFormatOptional());
  }

  /**
   * {@code t} on this device: {@code t} itself when it is there already, else a copy (null stays
   * null). Batches are built on the host and placed with this; node memory stays on the host. From
   * the host to a GPU the copy goes through page-locked memory and does not block the host (as a
   * PyTorch loader with {@code pin_memory}: the host allocator keeps the page-locked block until
   * the copy has completed). Pinning the node memory itself would not help: a batch's reads are
   * gathered into fresh tensors.
   */
  public Tensor place(Tensor t) {
    if (t == null) {
      return null;
    }
    if (host()) {
      return Tensors.host(t);
    }
    if (cuda() && t.is_cpu()) {
      return t.pin_memory()
          .to(new Device(device), t.scalar_type(), true, false, new MemoryFormatOptional());
    }
    return t.to(new Device(device), t.scalar_type());
  }
}
