package dev.depbloom.nn;

import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * TGL's (and TGAT's) time encoding {@code cos(w * dt + b)}: a {@code Linear(1, dim)} with {@code
 * w_i = 10^(-9 i / (dim - 1))} and {@code b = 0} at initialisation; both learnable, as in TGL and
 * the reference.
 */
public final class TimeEncoder extends Module {
  private final int dim;
  private final LinearImpl linear; // 1 -> dim

  public TimeEncoder(int dim) {
    this.dim = dim;
    this.linear = register_module("w", new LinearImpl(1, dim));
    float[] w = new float[dim];
    for (int i = 0; i < dim; i++) {
      w[i] = (float) Math.pow(10, dim == 1 ? 0 : -9.0 * i / (dim - 1));
    }
    Init.copy(linear.weight(), Tensors.floats(w, dim, 1));
    Init.copy(linear.bias(), torch.zeros(dim));
  }

  public int dim() {
    return dim;
  }

  /**
   * {@code dt [n]} to {@code [n, dim]}. Without gradient the cosine overwrites the projection (the
   * same values, one allocation less); with gradient its backward needs the projection.
   */
  public Tensor encode(Tensor dt) {
    // b + dt w in one broadcast pass: the Linear's formula (its addmm is a product over one input
    // plus the bias) without its copy of the bias into the output and the product's packing
    Tensor phase =
        torch.addcmul(linear.bias(), dt.view(-1, 1), linear.weight().view(1, -1)); // [n, dim]
    return GradMode.is_enabled() ? phase.cos() : phase.cos_();
  }

  /** The encoding's weight {@code [dim, 1]}, for tests. */
  public Tensor weight() {
    return linear.weight();
  }

  /** The encoding's phase {@code [dim]}, for tests. */
  public Tensor bias() {
    return linear.bias();
  }
}
