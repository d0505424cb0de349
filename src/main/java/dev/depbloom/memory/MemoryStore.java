package dev.depbloom.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Host-resident node memory for a schedule (DESIGN.md section 3): one or more <em>memory
 * views</em>, each a complete {@link NodeMemory} (the whole store for {@code sequential}; one copy
 * per memory group for {@code disttgl}). Every row of every view carries a version, bumped by every
 * committed change to its memory or its mail. A write can be announced before it is applied ({@link
 * #announce}); until it is committed, a reader of any of its rows waits ({@link #awaitReadable}) —
 * never spins — and fails after the timeout with an error naming the round, the view and the row.
 *
 * <p>Thread-safety: commits, announcements and waits are serialised by one lock; the tensors of a
 * view are read by steps only after {@link #awaitReadable} returned for their rows.
 */
public final class MemoryStore implements AutoCloseable {
  private final List<NodeMemory> views;
  private final int[][] versions; // [view][node]
  private final int[][] pending; // [view][node] announced, uncommitted writes
  private final long timeoutNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition committed = lock.newCondition();

  /**
   * @param viewCount memory views, each {@code [nodeCount, dim]} memory with its mailbox
   * @param readTimeoutMillis how long a read waits for a pending write before it fails
   */
  public MemoryStore(
      int viewCount, int nodeCount, int dim, int mailboxSize, int mailDim, long readTimeoutMillis) {
    if (viewCount < 1) {
      throw new IllegalArgumentException("a memory store needs at least one view: " + viewCount);
    }
    this.views = new ArrayList<>(viewCount);
    for (int v = 0; v < viewCount; v++) {
      views.add(new NodeMemory(nodeCount, dim, mailboxSize, mailDim));
    }
    this.versions = new int[viewCount][nodeCount];
    this.pending = new int[viewCount][nodeCount];
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis);
  }

  public int viewCount() {
    return views.size();
  }

  /** The memory of one view; read it only after {@link #awaitReadable} for the rows read. */
  public NodeMemory view(int view) {
    return views.get(view);
  }

  /** All views in order (checkpoints). */
  public List<NodeMemory> views() {
    return List.copyOf(views);
  }

  /** How many writes have been committed to a row of a view. */
  public int version(int view, int node) {
    lock.lock();
    try {
      return versions[view][node];
    } finally {
      lock.unlock();
    }
  }

  /**
   * Announces that {@code write} will be committed to {@code view}: until {@link #commit} of the
   * returned token, readers of its memory and mail rows wait.
   */
  public PendingWrite announce(int view, MemoryWrite write) {
    lock.lock();
    try {
      for (int v : write.memoryNodes()) {
        pending[view][v]++;
      }
      for (int v : write.mailNodes()) {
        pending[view][v]++;
      }
      return new PendingWrite(view, write);
    } finally {
      lock.unlock();
    }
  }

  /** Applies an announced write and wakes the readers of its rows. */
  public void commit(PendingWrite p) {
    lock.lock();
    try {
      views.get(p.view()).apply(p.write());
      for (int v : p.write().memoryNodes()) {
        pending[p.view()][v]--;
        versions[p.view()][v]++;
      }
      for (int v : p.write().mailNodes()) {
        pending[p.view()][v]--;
        versions[p.view()][v]++;
      }
      committed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Applies a write at once (announce and commit). */
  public void apply(int view, MemoryWrite write) {
    commit(announce(view, write));
  }

  /**
   * Returns when no row of {@code nodes} in {@code view} has a pending write.
   *
   * @throws MemoryReadTimeoutException naming the round, view and first pending row after the
   *     timeout
   */
  public void awaitReadable(int view, int[] nodes, int round) {
    lock.lock();
    try {
      long left = timeoutNanos;
      int[] rows = pending[view];
      for (int i = 0; i < nodes.length; ) {
        if (rows[nodes[i]] == 0) {
          i++;
          continue;
        }
        if (left <= 0) {
          throw new MemoryReadTimeoutException(round, view, nodes[i], timeoutNanos);
        }
        left = committed.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for memory rows", e);
    } finally {
      lock.unlock();
    }
  }

  /** Forgets one view's contents (memory reset); refuses while writes to it are pending. */
  public void reset(int view) {
    lock.lock();
    try {
      for (int v = 0; v < pending[view].length; v++) {
        if (pending[view][v] != 0) {
          throw new IllegalStateException(
              "memory view " + view + " reset while row " + v + " has a pending write");
        }
      }
      views.get(view).reset();
      java.util.Arrays.fill(versions[view], 0);
    } finally {
      lock.unlock();
    }
  }

  /** A write announced to a view and not yet committed. */
  public record PendingWrite(int view, MemoryWrite write) {}

  @Override
  public void close() {
    for (NodeMemory m : views) {
      m.close();
    }
  }
}
