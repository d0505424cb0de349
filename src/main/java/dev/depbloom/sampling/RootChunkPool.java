package dev.depbloom.sampling;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed set of threads that runs one task over contiguous chunks of {@code [0, n)} and joins
 * them: chunk {@code c} of {@code k} is {@code [c*n/k, (c+1)*n/k)}. The calling thread runs the
 * last chunk itself, so {@code threads} is the number of threads that work, the caller included.
 *
 * <p>How the range is cut affects only speed: tasks must write disjoint outputs per index.
 */
final class RootChunkPool implements AutoCloseable {
  /**
   * Fewest work units (for sampling: sample slots, roots times fanout) worth a chunk of their own.
   * Handing a chunk to a parked worker and joining it costs tens of microseconds on a virtual
   * machine, about what 16,384 sample slots cost to fill; smaller ranges run on the caller alone. A
   * batch of 600 events with fanout 10 (18,000 slots) thus stays on one thread, its second uniform
   * layer (180,000 slots) is split.
   */
  static final long MIN_CHUNK_WORK = 16_384;

  private static final AtomicInteger POOLS = new AtomicInteger();

  /** Work on the index range {@code [from, to)}. */
  @FunctionalInterface
  interface ChunkTask {
    void run(int from, int to);
  }

  private final int threads;
  private final ExecutorService workers; // threads - 1 workers, or null for one thread

  RootChunkPool(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    this.threads = threads;
    if (threads == 1) {
      this.workers = null;
    } else {
      int pool = POOLS.incrementAndGet();
      AtomicInteger worker = new AtomicInteger();
      this.workers =
          Executors.newFixedThreadPool(
              threads - 1,
              task -> {
                Thread t =
                    new Thread(task, "sampler-" + pool + "-worker-" + worker.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
    }
  }

  int threads() {
    return threads;
  }

  /**
   * Runs {@code task} over {@code [0, n)} in contiguous chunks and waits for all of them; {@code
   * workPerIndex} (e.g. the fanout) decides how many chunks are worth it.
   */
  void forEachChunk(int n, int workPerIndex, ChunkTask task) {
    long work = (long) n * workPerIndex;
    int chunks = (int) Math.max(1, Math.min(threads, work / MIN_CHUNK_WORK));
    if (chunks == 1) {
      task.run(0, n);
      return;
    }
    Future<?>[] pending = new Future<?>[chunks - 1];
    for (int c = 0; c < chunks - 1; c++) {
      int from = (int) ((long) c * n / chunks);
      int to = (int) ((long) (c + 1) * n / chunks);
      pending[c] = workers.submit(() -> task.run(from, to));
    }
    Throwable failure = null;
    try {
      task.run((int) ((long) (chunks - 1) * n / chunks), n);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    failure = joinAll(pending, failure);
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException("a sampling worker failed", failure);
    }
  }

  /** Waits for every pending chunk, even after a failure; returns the first failure. */
  private static Throwable joinAll(Future<?>[] pending, Throwable failure) {
    boolean interrupted = false;
    for (Future<?> f : pending) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          failure = failure != null ? failure : e.getCause();
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return failure;
  }

  @Override
  public void close() {
    if (workers != null) {
      workers.shutdownNow();
    }
  }
}
