package dev.depbloom.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import org.bytedeco.pytorch.BoolOptional;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/**
 * {@link SigmoidTanh} against libtorch's tanh: within the sigmoid's rounding everywhere, exact at
 * the limits, NaN kept; with gradient it is libtorch's tanh itself.
 */
class SigmoidTanhTest {
  /** The bound the class documents; measured here: 1.8e-7, 3 float spacings of 1/2. */
  private static final float BOUND = SigmoidTanh.MAX_ERROR;

  @Test
  void staysWithinTheSigmoidsRoundingOfTanhOverTheWholeRange() {
    try (StepScope scope = new StepScope();
        NoGradGuard g = new NoGradGuard()) {
      // dense near 0, where the form loses relative precision, and out to where tanh saturates
      Tensor x =
          torch.cat(
              new TensorVector(
                  torch.linspace(new Scalar(-1e-3), new Scalar(1e-3), 100_001),
                  torch.linspace(new Scalar(-12), new Scalar(12), 1_000_001)));
      float[] expected = Tensors.toFloats(x.tanh());
      float[] got = Tensors.toFloats(SigmoidTanh.into(x.clone(), x.clone()));
      double worst = 0;
      for (int i = 0; i < expected.length; i++) {
        worst = Math.max(worst, Math.abs(got[i] - expected[i]));
      }
      assertTrue(worst <= BOUND, "worst absolute error " + worst);
      assertTrue(worst > 0, "expected the form to differ from tanh somewhere: is it still tanh?");
    }
  }

  @Test
  void isExactAtTheLimitsAndKeepsNaN() {
    try (StepScope scope = new StepScope();
        NoGradGuard g = new NoGradGuard()) {
      float[] in = {
        Float.NEGATIVE_INFINITY, -100f, -20f, 0f, 20f, 100f, Float.POSITIVE_INFINITY, Float.NaN
      };
      Tensor x = Tensors.floats(in, in.length);
      Tensor result = SigmoidTanh.inPlace(x);
      // the caller's own tensor: a handle the binding made for a returned reference owns nothing,
      // and retaining it past the scope would leave it pointing at freed memory
      assertSame(x, result);
      float[] out = Tensors.toFloats(result);
      assertArrayEquals(new float[] {-1f, -1f, -1f, 0f, 1f, 1f, 1f}, Arrays.copyOf(out, 7));
      assertTrue(Float.isNaN(out[7]));
    }
  }

  @Test
  void writesIntoRowsOfALargerTensorAndNothingElse() {
    try (StepScope scope = new StepScope();
        NoGradGuard g = new NoGradGuard()) {
      torch.manual_seed(3);
      Tensor x = torch.randn(5, 4);
      float[] expected = Tensors.toFloats(x.tanh());
      Tensor big = torch.full(new long[] {9, 4}, new Scalar(-7.0));
      SigmoidTanh.into(big.narrow(0, 2, 5), x.clone());
      float[] all = Tensors.toFloats(big);
      for (int i = 0; i < all.length; i++) {
        int row = i / 4;
        if (row < 2 || row >= 7) {
          assertEquals(-7.0f, all[i]);
        } else {
          assertEquals(expected[i - 8], all[i], BOUND);
        }
      }
    }
  }

  @Test
  void withGradientItIsLibtorchsTanhAndItsGradient() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(4);
      Tensor x = torch.randn(6, 3).requires_grad_(true);
      Tensor expected = x.tanh();
      Tensor own = x.mul(new Scalar(1.0));
      Tensor got = SigmoidTanh.inPlace(own);
      assertSame(own, got);
      assertArrayEquals(Tensors.toFloats(expected), Tensors.toFloats(got.detach()));
      Tensor grad =
          torch
              .grad(
                  new TensorVector(got.sum()),
                  new TensorVector(x),
                  new TensorVector(),
                  new BoolOptional(),
                  false,
                  false)
              .get(0);
      float[] y = Tensors.toFloats(expected.detach());
      float[] dy = Tensors.toFloats(grad);
      for (int i = 0; i < y.length; i++) {
        assertEquals(1 - y[i] * y[i], dy[i], 1e-6f);
      }
      assertThrows(IllegalStateException.class, () -> SigmoidTanh.into(x.detach(), x.detach()));
    }
  }
}
