package dev.depbloom.tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
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
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, cores - 1), daemonThreads());
    try (StepScope scope = new StepScope()) {
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
    } finally {
      pool.shutdownNow();
    }
    TensorRuntime.applyThreads(best);
    return new Result(best, times);
  }

  /** The workload split over {@code workers} threads (the caller is one of them); wall ms. */
  private static double sharded(
      int workers, List<LinearImpl> linears, Tensor x, ExecutorService pool) {
    long rows = ROWS / workers / 10 * 10;
    long t0 = System.nanoTime();
    List<Future<?>> others = new ArrayList<>();
    for (int w = 1; w < workers; w++) {
      Tensor part = x.narrow(0, w * rows, rows);
      LinearImpl linear = linears.get(w);
      others.add(pool.submit(() -> onceOn(linear, part)));
    }
    onceOn(linears.get(0), x.narrow(0, 0, rows));
    for (Future<?> f : others) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while calibrating threads", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("thread calibration failed", e.getCause());
      }
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  private static ThreadFactory daemonThreads() {
    return r -> {
      Thread t = new Thread(r, "depbloom-calibration");
      t.setDaemon(true);
      return t;
    };
  }

  private static double once(LinearImpl linear, Tensor x) {
    long t0 = System.nanoTime();
    onceOn(linear, x);
    return (System.nanoTime() - t0) / 1e6;
  }

  private static void onceOn(LinearImpl linear, Tensor x) {
    try (StepScope scope = new StepScope()) {
      long rows = x.size(0);
      Tensor y = linear.forward(x).cos(); // [rows, 200]
      Tensor z = torch.softmax(y.view(rows / 10, 10, 200), 1).mul(y.view(rows / 10, 10, 200));
      z.sum().backward();
      linear.zero_grad(true);
    }
  }
}
