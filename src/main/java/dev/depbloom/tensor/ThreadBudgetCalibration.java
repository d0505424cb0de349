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
 * and the fastest wins. The step-worker candidate runs the same rows split over its workers, one
 * thread each, as a sharded training step does. Takes well under a second.
 */
public final class ThreadBudgetCalibration {
  private static final int ROWS = 8000;
  private static final int REPEATS = 4;

  private ThreadBudgetCalibration() {}

  /** The result: the chosen budget and the best time measured for every candidate. */
  public record Result(ThreadBudget chosen, Map<String, Double> millisByCandidate) {}

  /**
   * Candidates for {@code cores} cores: all intra-op, all BLAS, both at full width, and one step
   * worker per core with one thread in each pool.
   */
  public static List<ThreadBudget> candidates(int cores) {
    List<ThreadBudget> c = new ArrayList<>();
    c.add(new ThreadBudget(1, cores));
    if (cores > 1) {
      c.add(new ThreadBudget(cores, 1));
      c.add(new ThreadBudget(cores, cores));
      c.add(new ThreadBudget(1, 1, cores));
    }
    return c;
  }

  public static Result calibrate(int cores) {
    List<ThreadBudget> candidates = candidates(cores);
    Map<String, Double> times = new LinkedHashMap<>();
    ThreadBudget best = candidates.get(0);
    double bestMs = Double.MAX_VALUE;
    try (WorkerPool pool = new WorkerPool("depbloom-calibration", cores - 1);
        StepScope scope = new StepScope()) {
      torch.manual_seed(0);
      List<LinearImpl> linears = new ArrayList<>();
      for (int w = 0; w < Math.max(1, cores); w++) {
        linears.add(new LinearImpl(372, 200));
      }
      Tensor x = torch.randn(ROWS, 372);
      for (ThreadBudget b : candidates) {
        TensorRuntime.applyThreads(b);
        double ms = Double.MAX_VALUE;
        for (int r = 0; r <= REPEATS; r++) {
          double t =
              b.workers() == 1 ? once(linears.get(0), x) : sharded(b.workers(), linears, x, pool);
          if (r > 0) {
            ms = Math.min(ms, t);
          }
        }
        times.put(b.spec().replace(',', '+'), ms);
        if (ms < bestMs) {
          bestMs = ms;
          best = b;
        }
      }
    }
    TensorRuntime.applyThreads(best);
    return new Result(best, times);
  }

  /** The workload split over {@code workers} threads (the caller is one of them); wall ms. */
  private static double sharded(int workers, List<LinearImpl> linears, Tensor x, WorkerPool pool) {
    long rows = ROWS / workers / 10 * 10;
    long t0 = System.nanoTime();
    pool.runAll(
            workers,
            w -> {
              onceOn(linears.get(w), x, w * rows, rows);
              return null;
            })
        .orThrow();
    return (System.nanoTime() - t0) / 1e6;
  }

  private static double once(LinearImpl linear, Tensor x) {
    long t0 = System.nanoTime();
    onceOn(linear, x, 0, x.size(0));
    return (System.nanoTime() - t0) / 1e6;
  }

  /** The workload on rows {@code [from, from + rows)} of {@code x}. */
  private static void onceOn(LinearImpl linear, Tensor x, long from, long rows) {
    try (StepScope scope = new StepScope()) {
      Tensor y = linear.forward(x.narrow(0, from, rows)).cos(); // [rows, 200]
      Tensor z = torch.softmax(y.view(rows / 10, 10, 200), 1).mul(y.view(rows / 10, 10, 200));
      z.sum().backward();
      linear.zero_grad(true);
    }
  }
}
