package dev.depbloom.tensor;

import org.bytedeco.pytorch.BoolOptional;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * The gradient chores of the binding: {@code torch.grad} with its optional arguments spelled out.
 */
public final class Autograd {
  private Autograd() {}

  /**
   * Gradients of {@code loss} with respect to each of {@code parameters}, in order, detached and
   * retained past the caller's scope (the owner frees them, {@link Tensors#release}); null where a
   * parameter is unreached. {@code torch.grad} leaves the parameters' {@code .grad} alone, so
   * several threads may compute gradients of one model at once.
   */
  public static Tensor[] gradients(Tensor loss, TensorVector parameters) {
    TensorVector g =
        torch.grad(
            new TensorVector(loss),
            parameters,
            new TensorVector(),
            new BoolOptional(),
            false,
            true);
    // get(i) refers into the vector, which the scope frees: keep a handle of our own
    Tensor[] kept = new Tensor[(int) g.size()];
    for (int i = 0; i < kept.length; i++) {
      Tensor gi = g.get(i);
      kept[i] = gi.defined() ? Tensors.retain(gi.detach()) : null;
    }
    return kept;
  }
}
