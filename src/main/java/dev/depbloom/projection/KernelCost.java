package dev.depbloom.projection;

/**
 * Recorded kernels priced on one {@link DeviceModel}: each kernel costs the larger of its launch
 * overhead and its work ({@link DeviceModel#kernelSeconds}); the kernels whose launch overhead is
 * the larger count as launch time, the others as compute time (FLOP- or bandwidth-bound).
 *
 * @param kernels kernels launched
 * @param launchSeconds summed cost of the launch-bound kernels
 * @param computeSeconds summed cost of the others
 */
public record KernelCost(long kernels, double launchSeconds, double computeSeconds) {
  public static final KernelCost NONE = new KernelCost(0, 0, 0);

  /** One kernel of {@code flops} and {@code bytes} (read plus written) on {@code model}. */
  public static KernelCost of(DeviceModel model, double flops, double bytes) {
    double work = Math.max(flops / model.fp32Flops(), bytes / model.deviceBytes());
    return work > model.launchSeconds()
        ? new KernelCost(1, 0, work)
        : new KernelCost(1, model.launchSeconds(), 0);
  }

  public KernelCost plus(KernelCost o) {
    return new KernelCost(
        kernels + o.kernels, launchSeconds + o.launchSeconds, computeSeconds + o.computeSeconds);
  }

  /** The same kernels {@code n} times. */
  public KernelCost times(int n) {
    return new KernelCost(kernels * n, launchSeconds * n, computeSeconds * n);
  }

  public double seconds() {
    return launchSeconds + computeSeconds;
  }
}
