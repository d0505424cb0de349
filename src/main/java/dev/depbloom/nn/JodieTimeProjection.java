package dev.depbloom.nn;

import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * JODIE's projection of an embedding into the future (Kumar et al., KDD 2019), as TGL applies it:
 * {@code h * (1 + W dt)} with {@code dt = (t - memoryTime) / (t + 1)}; W is a {@code Linear(1,
 * dim)} initialised from {@code N(0, 1)} (JODIE's NormalLinear: std {@code 1 / sqrt(fan_in)},
 * fan_in 1).
 */
public final class JodieTimeProjection extends Module {
  private final LinearImpl linear; // 1 -> dim

  public JodieTimeProjection(int dim) {
    this.linear = register_module("time_emb", new LinearImpl(1, dim));
    Init.normal(linear.weight(), 1.0);
    Init.normal(linear.bias(), 1.0);
  }

  /** {@code h [R, dim]}, {@code relativeDelta [R]} = (t - memoryTime) / (t + 1). */
  public Tensor forward(Tensor h, Tensor relativeDelta) {
    // h (1 + s) as h + h s, s = b + W dt: two broadcast passes over [R, dim], where the Linear
    // (a copy of its bias, a product over one input), the + 1 and the product took four
    Tensor s =
        torch.addcmul(
            linear.bias(), relativeDelta.view(-1, 1), linear.weight().view(1, -1)); // [R, dim]
    if (!GradMode.is_enabled()) { // in place in s: one [R, dim] allocation less
      torch.addcmul_out(s, h, h, s);
      return s; // not the _out call's result: a handle that owns nothing
    }
    return torch.addcmul(h, h, s);
  }
}
