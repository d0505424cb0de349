package dev.depbloom.nn;

import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * {@code tanh(x)} computed as {@code 2 sigmoid(2x) - 1}, without gradient: libtorch's CPU tanh
 * (Sleef's 1-ULP {@code tanhf}) costs about three times its sigmoid (an {@code exp} and a
 * reciprocal), and on the test pass of JODIE it was 15% of the samples, more than any operator but
 * the matrix products ({@code OpCostBenchmark} in the tests measures both).
 *
 * <p>Doubling is exact in floats, and {@code 2s - 1} is exact for {@code s} in {@code [1/4, 1]}
 * (Sterbenz), so the error is the sigmoid's, doubled: under {@code 2^-22} (2.4e-7) absolute against
 * tanh, 1.8e-7 measured over {@code [-12, 12]} ({@code SigmoidTanhTest}); that is a few float
 * spacings of values near 1 but, for inputs near 0, a larger <em>relative</em> error than tanh's
 * own (an input of {@code 1e-3} comes out to about 4 digits). That is the price: memory values are
 * sums of such terms, and the next operations (products of width 100) round at the same absolute
 * scale. Training keeps libtorch's tanh, whose backward reads its output; only passes without
 * gradient (validation, the test, its replay) use this form.
 */
public final class SigmoidTanh {
  /** The largest absolute difference from libtorch's tanh: 2^-22, four float spacings of 1/2. */
  public static final float MAX_ERROR = 0x1p-22f;

  private SigmoidTanh() {}

  /**
   * {@code tanh(x)} in place in {@code x}, a tensor the caller owns: libtorch's {@code tanh_} with
   * gradient (its backward reads the output, so in place is safe), this form without.
   */
  public static Tensor inPlace(Tensor x) {
    return GradMode.is_enabled() ? x.tanh_() : into(x, x);
  }

  /**
   * Writes {@code tanh(x)} into {@code out} (same shape, may be {@code x} itself); {@code x} is
   * overwritten. Without gradient only.
   */
  public static Tensor into(Tensor out, Tensor x) {
    if (GradMode.is_enabled()) {
      throw new IllegalStateException("SigmoidTanh runs without gradient; use tanh");
    }
    torch.sigmoid_out(out, x.mul_(new Scalar(2.0)));
    // 2 s - 1 in one pass: -1 + 2 * s, the -1 a 0-dim tensor broadcast over out
    torch.add_out(out, torch.scalar_tensor(new Scalar(-1.0)), out, new Scalar(2.0));
    // out itself, not add_out's result: that is a handle the binding made for the reference the
    // function returns, which owns nothing, so retaining it would not keep out alive
    return out;
  }
}
