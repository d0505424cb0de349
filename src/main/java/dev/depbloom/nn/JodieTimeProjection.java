package dev.depbloom.nn;

import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;

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
    Tensor scale = linear.forward(relativeDelta.view(-1, 1)); // [R, dim]
    if (!GradMode.is_enabled()) { // the same values in place: two [R, dim] allocations less
      return scale.add_(new Scalar(1.0)).mul_(h);
    }
    return h.mul(scale.add(new Scalar(1.0)));
  }
}
