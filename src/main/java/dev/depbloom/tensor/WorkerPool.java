package dev.depbloom.tensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Runs tasks {@code 0..n-1} of one unit of tensor work in parallel: task 0 on the calling thread,
 * the others on daemon threads (so a stuck task never keeps the JVM alive), and waits for all of
 * them. Used by sharded training steps and by the thread calibration that measures them.
 */
public final class WorkerPool implements AutoCloseable {
  private final ExecutorService pool;

  /** A pool of {@code threads} helper threads named {@code name-1, name-2, ...}. */
  public WorkerPool(String name, int threads) {
    AtomicInteger next = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            Math.max(1, threads),
            r -> {
              Thread t = new Thread(r, name + "-" + next.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * What the tasks returned, in task order ({@code null} for a task that failed), the first failure
   * in task order (or null), and how long the caller waited for the others after its own task.
   */
  public record Results<T>(List<T> values, RuntimeException failure, long waitNanos) {
    /** The values, or the first failure thrown. */
    public List<T> orThrow() {
      if (failure != null) {
        throw failure;
      }
      return values;
    }
  }

  /** Runs {@code task(0)} here and {@code task(1..n-1)} on the pool; returns when all are done. */
  public <T> Results<T> runAll(int n, IntFunction<T> task) {
    List<Future<T>> others = new ArrayList<>(n - 1);
    for (int i = 1; i < n; i++) {
      int index = i;
      others.add(pool.submit(() -> task.apply(index)));
    }
    List<T> values = new ArrayList<>(Collections.nCopies(n, null));
    RuntimeException failure = null;
    try {
      values.set(0, task.apply(0));
    } catch (RuntimeException e) {
      failure = e;
    }
    long waitStart = System.nanoTime();
    for (int i = 1; i < n; i++) {
      try {
        values.set(i, others.get(i - 1).get());
      } catch (ExecutionException e) {
        RuntimeException cause =
            e.getCause() instanceof RuntimeException r
                ? r
                : new IllegalStateException("a worker thread failed", e.getCause());
        failure = failure == null ? cause : failure;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = failure == null ? new IllegalStateException("interrupted", e) : failure;
      }
    }
    return new Results<>(values, failure, System.nanoTime() - waitStart);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
