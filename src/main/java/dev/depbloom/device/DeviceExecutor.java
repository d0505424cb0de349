package dev.depbloom.device;

import dev.depbloom.tensor.WorkerPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs a round's tasks on {@code W} workers: the calling (coordinating) thread is worker 0, and
 * task {@code t} runs on worker {@code t mod W}, each worker taking its tasks in increasing order.
 * Tasks are logical devices' work items (or, when workers outnumber devices, their event shards),
 * so logical device {@code d} runs on worker {@code d mod W}. Every fan-out is joined before {@link
 * #run} returns.
 */
public final class DeviceExecutor implements AutoCloseable {
  private final int workers;
  private final WorkerPool pool; // workers - 1 threads, or null for one worker

  public DeviceExecutor(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be positive: " + workers);
    }
    this.workers = workers;
    this.pool = workers > 1 ? new WorkerPool("depbloom-worker", workers - 1) : null;
  }

  public int workers() {
    return workers;
  }

  /**
   * Runs tasks {@code 0..n-1}; returns their results in task order, the first failure in worker
   * order, and how long the coordinator waited for the other workers after its own tasks.
   */
  public <T> WorkerPool.Results<T> run(int n, IntFunction<T> task) {
    return run(n, task, () -> {});
  }

  /**
   * As {@link #run(int, IntFunction)}, with {@code first} run by the coordinating thread before its
   * own tasks, while the other workers already run theirs (e.g. planning the next round).
   */
  public <T> WorkerPool.Results<T> run(int n, IntFunction<T> task, Runnable first) {
    int active = Math.min(workers, n);
    if (active <= 1) {
      first.run();
      List<T> values = new ArrayList<>(n);
      for (int t = 0; t < n; t++) {
        values.add(task.apply(t));
      }
      return new WorkerPool.Results<>(values, null, 0);
    }
    WorkerPool.Results<List<T>> perWorker =
        pool.runAll(
            active,
            w -> {
              if (w == 0) {
                first.run();
              }
              List<T> mine = new ArrayList<>();
              for (int t = w; t < n; t += workers) {
                mine.add(task.apply(t));
              }
              return mine;
            });
    List<T> values = new ArrayList<>(Collections.nCopies(n, null));
    for (int w = 0; w < active; w++) {
      List<T> mine = perWorker.values().get(w);
      for (int i = 0; mine != null && i < mine.size(); i++) {
        values.set(w + i * workers, mine.get(i));
      }
    }
    return new WorkerPool.Results<>(values, perWorker.failure(), perWorker.waitNanos());
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.close();
    }
  }
}
