package dev.depbloom.tensor;

import java.util.Arrays;

/**
 * The kernels a piece of code ran, one entry each: its FLOPs and its bytes (read plus written), in
 * the order they ran. Unlike {@link OpWork}, which sums per operator, it keeps every kernel, so a
 * device model can price each at the larger of its launch overhead and its work (a sum cannot: a
 * hundred small kernels and one large one cost more than their totals say). Grows while recording;
 * readers see what was added before they read.
 */
public final class KernelLog {
  private double[] flops = new double[64];
  private double[] bytes = new double[64];
  private int size;

  /** Appends one kernel. */
  public void add(double kernelFlops, double kernelBytes) {
    if (size == flops.length) {
      flops = Arrays.copyOf(flops, 2 * size);
      bytes = Arrays.copyOf(bytes, 2 * size);
    }
    flops[size] = kernelFlops;
    bytes[size] = kernelBytes;
    size++;
  }

  /** Appends every kernel of {@code other}, in order. */
  public void addAll(KernelLog other) {
    for (int i = 0; i < other.size; i++) {
      add(other.flops[i], other.bytes[i]);
    }
  }

  /** Kernels logged. */
  public int size() {
    return size;
  }

  public double flops(int kernel) {
    return flops[kernel];
  }

  public double bytes(int kernel) {
    return bytes[kernel];
  }

  public double totalFlops() {
    double s = 0;
    for (int i = 0; i < size; i++) {
      s += flops[i];
    }
    return s;
  }

  public double totalBytes() {
    double s = 0;
    for (int i = 0; i < size; i++) {
      s += bytes[i];
    }
    return s;
  }
}
