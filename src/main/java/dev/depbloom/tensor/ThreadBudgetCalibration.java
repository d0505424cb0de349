package dev.depbloom.tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Chooses the thread budget by measuring, not guessing: each candidate split of the cores between
 * libtorch's intra-op pool and OpenBLAS runs a small workload shaped like a training step (a
 * projection of 8,000 rows of 372 features to 200, forward and backward, plus element-wise work)
 * and the fastest wins. Takes well under a second.
 */
public final class ThreadBudgetCalibration {
  private static final int ROWS = 8000;
  private static final int REPEATS = 4;

  private ThreadBudgetCalibration() {}

  /** The result: the chosen budget and the best time measured for every candidate. */
  public record Result(ThreadBudget chosen, Map<String, Double> millisByCandidate) {}

  /** Candidates for {@code cores} cores: all intra-op, all BLAS, and both at full width. */
  public static List<ThreadBudget> candidates(int cores) {
    List<ThreadBudget> c = new ArrayList<>();
    c.add(new ThreadBudget(1, cores));
    if (cores > 1) {
      c.add(new ThreadBudget(cores, 1));
      c.add(new ThreadBudget(cores, cores));
    }
    return c;
  }

  public static Result calibrate(int cores) {
    List<ThreadBudget> candidates = candidates(cores);
    Map<String, Double> times = new LinkedHashMap<>();
    ThreadBudget best = candidates.get(0);
    double bestMs = Double.MAX_VALUE;
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(0);
      LinearImpl linear = new LinearImpl(372, 200);
      Tensor x = torch.randn(ROWS, 372);
      for (ThreadBudget b : candidates) {
        TensorRuntime.applyThreads(b);
        double ms = Double.MAX_VALUE;
        for (int r = 0; r <= REPEATS; r++) {
          double t = once(linear, x);
          if (r > 0) {
            ms = Math.min(ms, t);
          }
        }
        times.put(b.intraOp() + "+" + b.blas(), ms);
        if (ms < bestMs) {
          bestMs = ms;
          best = b;
        }
      }
    }
    TensorRuntime.applyThreads(best);
    return new Result(best, times);
  }

  private static double once(LinearImpl linear, Tensor x) {
    try (StepScope scope = new StepScope()) {
      long t0 = System.nanoTime();
      Tensor y = linear.forward(x).cos(); // [ROWS, 200]
      Tensor z = torch.softmax(y.view(ROWS / 10, 10, 200), 1).mul(y.view(ROWS / 10, 10, 200));
      z.sum().backward();
      linear.zero_grad(true);
      return (System.nanoTime() - t0) / 1e6;
    }
  }
}
