package dev.depbloom.tensor;

import dev.depbloom.nn.SigmoidTanh;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.bytedeco.pytorch.LayerNormImpl;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.global.torch;

/**
 * Microseconds per call of the element-wise and row-wise operators the test pass is made of, on one
 * thread, at the size of one JODIE test slice ({@code [7650, 100]}; not a unit test: speed is
 * measured here, never asserted). Each call includes a copy of the input (the {@code copy} row), so
 * the operator's own cost is its row minus that one. Run: {@code java -cp
 * "target/test-classes:target/classes:target/lib/*" dev.depbloom.tensor.OpCostBenchmark} with
 * {@code -Drows=N -Dcols=N -Dcalls=N} (defaults 7650, 100, 200); {@code ATEN_CPU_CAPABILITY=avx2}
 * in the environment selects libtorch's AVX2 kernels instead of AVX-512.
 */
public final class OpCostBenchmark {
  private OpCostBenchmark() {}

  public static void main(String[] args) {
    long rows = Long.getLong("rows", 7650);
    int cols = Integer.getInteger("cols", 100);
    int calls = Integer.getInteger("calls", 200);
    torch.set_num_threads(1);
    try (StepScope outer = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      torch.manual_seed(0);
      Tensor input = torch.randn(rows, cols);
      Tensor weight = torch.randn(cols, cols);
      Tensor bias = torch.randn(cols);
      LayerNormImpl norm = new LayerNormImpl(new LongVector(new long[] {cols}));
      Map<String, UnaryOperator<Tensor>> ops = new LinkedHashMap<>();
      ops.put("copy", x -> x);
      ops.put("mul_", x -> x.mul_(x));
      ops.put("relu_", Tensor::relu_);
      ops.put("exp_", Tensor::exp_);
      ops.put("cos_", Tensor::cos_);
      ops.put("sigmoid_", Tensor::sigmoid_);
      ops.put("tanh_", Tensor::tanh_);
      ops.put("tanh 2s(2x)-1", x -> SigmoidTanh.into(x, x));
      ops.put("layer_norm", norm::forward);
      ops.put("linear", x -> torch.linear(x, weight, new TensorOptional(bias)));
      System.out.printf(
          "us per call on [%d, %d], one thread, median of 3 rounds of %d calls%n",
          rows, cols, calls);
      for (Map.Entry<String, UnaryOperator<Tensor>> op : ops.entrySet()) {
        double[] rounds = new double[3];
        for (int r = 0; r < rounds.length; r++) {
          long start = System.nanoTime();
          for (int i = 0; i < calls; i++) {
            try (StepScope scope = new StepScope()) {
              op.getValue().apply(input.clone());
            }
          }
          rounds[r] = (System.nanoTime() - start) / 1e3 / calls;
        }
        Arrays.sort(rounds);
        System.out.printf("%-12s %8.0f%n", op.getKey(), rounds[1]);
      }
    }
  }
}
