package dev.depbloom;

/**
 * JUnit tags for tests whose numbers come from libtorch's CPU kernels. libtorch picks its kernels
 * for the CPU it runs on (AVX-512, AVX2 or the default ones; {@code ATEN_CPU_CAPABILITY} overrides
 * the choice), and they round differently, so a test that trains must hold on every kernel set: it
 * compares two runs on the same machine, never a figure recorded on another, and trains at a rate
 * that stays clear of a collapse or divergence on every kernel set. {@code .ci/run} runs the tests
 * tagged {@link #TRAINS} a second time under another kernel set than the CPU's own.
 */
public final class Kernels {
  /** Trains a model or computes its scores: the result depends on the kernels. */
  public static final String TRAINS = "trains";

  private Kernels() {}
}
