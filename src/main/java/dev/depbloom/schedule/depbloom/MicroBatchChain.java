package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.MemoryWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The micro-batches of one sub-chain's large batch in one round, for intra-batch memory refinement:
 * micro-batch {@code j} publishes its memory write as soon as its memory update is done, and
 * micro-batch {@code j} reads through the writes of {@code 0..j-1} ({@link #awaitEarlier}). This is
 * the short chain inside a round that refinement costs: memory updates in micro-batch order, while
 * embedding, loss and backward of the micro-batches still run in parallel.
 *
 * <p>Micro-batches wait only on lower indices and each worker takes its tasks in increasing order,
 * so the chain cannot deadlock. A micro-batch that fails is published as failed, so that the later
 * ones fail with its name instead of waiting.
 */
public final class MicroBatchChain {
  private final int chain;
  private final int round;
  private final long timeoutMillis;
  private final List<CompletableFuture<MemoryWrite>> writes = new ArrayList<>();

  public MicroBatchChain(int chain, int round, int microBatches, long timeoutMillis) {
    this.chain = chain;
    this.round = round;
    this.timeoutMillis = timeoutMillis;
    for (int j = 0; j < microBatches; j++) {
      writes.add(new CompletableFuture<>());
    }
  }

  /** Micro-batch {@code j}'s write, for the later micro-batches (it stays the publisher's). */
  public void publish(int j, MemoryWrite write) {
    writes.get(j).complete(write);
  }

  /** Micro-batch {@code j} failed before publishing. */
  public void fail(int j, Throwable cause) {
    writes.get(j).completeExceptionally(cause);
  }

  /** The writes of micro-batches {@code 0..j-1}, in order, once all are published. */
  public List<MemoryWrite> awaitEarlier(int j) {
    List<MemoryWrite> out = new ArrayList<>(j);
    for (int i = 0; i < j; i++) {
      try {
        out.add(writes.get(i).get(timeoutMillis, TimeUnit.MILLISECONDS));
      } catch (ExecutionException e) {
        throw new IllegalStateException(
            "round " + round + ", chain " + chain + ": micro-batch " + i + " failed", e.getCause());
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            "round "
                + round
                + ", chain "
                + chain
                + ": micro-batch "
                + j
                + " waited "
                + timeoutMillis
                + " ms for the memory write of micro-batch "
                + i);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for micro-batch " + i, e);
      }
    }
    return out;
  }
}
