package dev.depbloom.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Host-resident node memory for a schedule (docs/schedules.md, "Rounds, replicas, workers and the
 * memory store"): one or more <em>memory views</em>, each a complete {@link NodeMemory} (the whole
 * store for {@code sequential}; one copy per memory group for {@code disttgl}). Every row of every
 * view carries a version, bumped by every committed change to its memory or its mail. A write can
 * be announced before it is applied ({@link #announce}); until it is committed, a reader of any of
 * its rows waits ({@link #awaitReadable}) — never spins — and fails after the timeout with an error
 * naming the round, the view and the row.
 *
 * <p>DepBloom keeps one view per sub-chain and merges them at a temporal window's end ({@link
 * #mergeLatest}); for that, every row of a view carries the stamp of the event that last wrote it
 * since the view's last merge ({@link WriteStamps}).
 *
 * <p>A model without memory gets {@link #none()}: a store of no views, which reads nothing and
 * writes nothing.
 *
 * <p>Thread-safety: commits, announcements and waits are serialised by one lock; the tensors of a
 * view are read by steps only after {@link #awaitReadable} returned for their rows.
 */
public final class MemoryStore implements AutoCloseable {
  private final List<NodeMemory> views;
  private final int[][] versions; // [view][node]
  private final int[][] pending; // [view][node] announced, uncommitted writes
  private final WriteStamps[] stamps; // [view] who wrote each row since the view's last merge
  private final long timeoutNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition committed = lock.newCondition();

  /**
   * @param viewCount memory views, each {@code [nodeCount, dim]} memory with its mailbox
   * @param readTimeoutMillis how long a read waits for a pending write before it fails
   */
  public MemoryStore(
      int viewCount, int nodeCount, int dim, int mailboxSize, int mailDim, long readTimeoutMillis) {
    this(viewCount, nodeCount, dim, mailboxSize, mailDim, readTimeoutMillis, true);
  }

  private MemoryStore(
      int viewCount,
      int nodeCount,
      int dim,
      int mailboxSize,
      int mailDim,
      long readTimeoutMillis,
      boolean memory) {
    if (memory && viewCount < 1) {
      throw new IllegalArgumentException("a memory store needs at least one view: " + viewCount);
    }
    this.views = new ArrayList<>(viewCount);
    for (int v = 0; v < viewCount; v++) {
      views.add(new NodeMemory(nodeCount, dim, mailboxSize, mailDim));
    }
    this.versions = new int[viewCount][nodeCount];
    this.pending = new int[viewCount][nodeCount];
    this.stamps = new WriteStamps[viewCount];
    Arrays.setAll(stamps, v -> new WriteStamps(nodeCount));
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis);
  }

  /** The store of a model without memory: no views; resets and closing do nothing. */
  public static MemoryStore none() {
    return new MemoryStore(0, 0, 0, 0, 0, 0, false);
  }

  /** Whether this is {@link #none()}: the model has no memory to read or write. */
  public boolean isNone() {
    return views.isEmpty();
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
   * Announces that training {@code write} will be committed to {@code view}: until {@link #commit}
   * of the returned token, readers of its memory and mail rows wait.
   */
  public PendingWrite announce(int view, MemoryWrite write) {
    return announce(view, write, WriteOrigin.TRAINING);
  }

  /** {@link #announce(int, MemoryWrite)} of a write from {@code origin}. */
  public PendingWrite announce(int view, MemoryWrite write, WriteOrigin origin) {
    lock.lock();
    try {
      for (int v : write.memoryNodes()) {
        pending[view][v]++;
      }
      for (int v : write.mailNodes()) {
        pending[view][v]++;
      }
      return new PendingWrite(view, write, origin);
    } finally {
      lock.unlock();
    }
  }

  /** Applies an announced write and wakes the readers of its rows. */
  public void commit(PendingWrite p) {
    lock.lock();
    try {
      views.get(p.view()).apply(p.write());
      stamps[p.view()].record(p.write(), p.origin());
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

  /**
   * Applies a write at once: after any pending write to its rows has been committed (so writes to a
   * row land in the order they were made), announced and committed.
   */
  public void apply(int view, MemoryWrite write) {
    apply(view, write, -1);
  }

  /** {@link #apply(int, MemoryWrite)} in round {@code round} (named if the wait times out). */
  public void apply(int view, MemoryWrite write, int round) {
    apply(view, write, round, WriteOrigin.TRAINING);
  }

  /** {@link #apply(int, MemoryWrite, int)} of a write from {@code origin}. */
  public void apply(int view, MemoryWrite write, int round, WriteOrigin origin) {
    awaitReadable(view, write.memoryNodes(), round);
    awaitReadable(view, write.mailNodes(), round);
    commit(announce(view, write, origin));
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

  /**
   * DepBloom's window-end merge of the views {@code group} (a memory group's sub-chains): per node,
   * among the views of the group that wrote its memory since their last merge, the one whose write
   * is latest gives every view of the group the memory row, and likewise for the mailbox ring among
   * the views that wrote it mail. A view that did not write a row does not compete with its
   * window-start copy. "Latest" is the row's time (memory time; latest mail time), equal times
   * broken by the stream index of the writing event, and of two writes of one event a training
   * write beats a replay ({@link WriteStamps}): with coarse timestamps (USLegis has 12) most rows
   * tie on time alone. Other views are untouched. Refuses while a write to the group is pending.
   * Returns, per view of the group (in its order), the time of the copies into it plus the choice
   * of winners, and the bytes copied into it.
   */
  public MergeCost mergeLatest(List<Integer> group) {
    lock.lock();
    try {
      int p = group.size();
      long[] nanos = new long[p];
      long[] bytes = new long[p];
      if (p == 1) {
        stamps[group.get(0)].clear();
        return new MergeCost(nanos, bytes);
      }
      long t0 = System.nanoTime();
      for (int v : group) {
        requireNothingPending(v, "merged");
      }
      LatestWrites winners = LatestWrites.of(group, views, stamps);
      long choose = System.nanoTime() - t0;
      NodeMemory shape = views.get(group.get(0));
      long memoryRowBytes = 4L * shape.dim() + 8;
      long mailRowBytes = (4L * shape.mailDim() + 8) * shape.mailboxSize() + 4;
      for (int to = 0; to < p; to++) {
        long c0 = System.nanoTime();
        for (int from = 0; from < p; from++) {
          if (from != to) {
            NodeMemory source = views.get(group.get(from));
            NodeMemory target = views.get(group.get(to));
            int[] memoryRows = winners.memoryRowsFrom(from);
            target.copyMemoryRows(source, memoryRows, memoryRows);
            int[] mailRows = winners.mailRowsFrom(from);
            target.copyMailRows(source, mailRows, mailRows);
            for (int node : memoryRows) {
              versions[group.get(to)][node]++;
            }
            for (int node : mailRows) {
              versions[group.get(to)][node]++;
            }
            bytes[to] += memoryRows.length * memoryRowBytes + mailRows.length * mailRowBytes;
          }
        }
        nanos[to] = choose + System.nanoTime() - c0;
      }
      for (int v : group) {
        stamps[v].clear();
      }
      return new MergeCost(nanos, bytes);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Copies into view {@code to} every row view {@code from} wrote since its last merge (memory and
   * mailbox, with their times), marking them written in {@code to} as replays of the writes {@code
   * from} holds; refuses while writes to either are pending. Returns the bytes copied. A DepBloom
   * prefill hands one chain's replayed rows to the next chain's view this way.
   */
  public long copyWritten(int from, int to) {
    lock.lock();
    try {
      requireNothingPending(from, "copied");
      requireNothingPending(to, "overwritten");
      WriteStamps source = stamps[from];
      WriteStamps target = stamps[to];
      int[] rows = source.writtenNodes();
      views.get(to).copyRows(views.get(from), rows, rows);
      for (int node : rows) {
        versions[to][node]++;
        target.set(
            node,
            Math.max(target.memory(node), WriteStamps.asReplay(source.memory(node))),
            Math.max(target.mail(node), WriteStamps.asReplay(source.mail(node))));
      }
      NodeMemory shape = views.get(to);
      long memoryRowBytes = 4L * shape.dim() + 8;
      long mailRowBytes = (4L * shape.mailDim() + 8) * shape.mailboxSize() + 4;
      return rows.length * (memoryRowBytes + mailRowBytes);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whole rows {@code nodes} of view {@code view} with their write stamps, as a value (what a
   * process sends the others at a window's end); refuses while writes to the view are pending.
   */
  public ViewRows readRows(int view, int[] nodes) {
    lock.lock();
    try {
      requireNothingPending(view, "read whole");
      long[] memoryStamps = new long[nodes.length];
      long[] mailStamps = new long[nodes.length];
      for (int i = 0; i < nodes.length; i++) {
        memoryStamps[i] = stamps[view].memory(nodes[i]);
        mailStamps[i] = stamps[view].mail(nodes[i]);
      }
      return ViewRows.read(view, views.get(view), nodes, memoryStamps, mailStamps);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Replaces whole rows of a view with {@code rows} (another process's final rows of it, at a
   * window's end), their write stamps included; refuses while writes to the view are pending.
   */
  public void replaceRows(ViewRows rows) {
    lock.lock();
    try (NodeMemory from = rows.asMemory()) {
      requireNothingPending(rows.view(), "overwritten");
      int[] positions = new int[rows.nodes().length];
      Arrays.setAll(positions, i -> i);
      views.get(rows.view()).copyRows(from, positions, rows.nodes());
      for (int i = 0; i < rows.nodes().length; i++) {
        int node = rows.nodes()[i];
        versions[rows.view()][node]++;
        stamps[rows.view()].set(node, rows.memoryStamps()[i], rows.mailStamps()[i]);
      }
    } finally {
      lock.unlock();
    }
  }

  private void requireNothingPending(int view, String what) {
    for (int v = 0; v < pending[view].length; v++) {
      if (pending[view][v] != 0) {
        throw new IllegalStateException(
            "memory view " + view + " " + what + " while row " + v + " has a pending write");
      }
    }
  }

  /**
   * Forgets one view's contents (memory reset), its write stamps included; refuses while writes to
   * it are pending.
   */
  public void reset(int view) {
    if (isNone()) {
      return;
    }
    lock.lock();
    try {
      requireNothingPending(view, "reset");
      views.get(view).reset();
      stamps[view].clear();
      Arrays.fill(versions[view], 0);
    } finally {
      lock.unlock();
    }
  }

  /**
   * What a merge cost each view of its group (in the group's order): nanoseconds of the copies into
   * it (with the choice of winners) and bytes copied into it.
   */
  public record MergeCost(long[] viewNanos, long[] viewBytes) {}

  /** A write announced to a view and not yet committed. */
  public record PendingWrite(int view, MemoryWrite write, WriteOrigin origin) {}

  @Override
  public void close() {
    for (NodeMemory m : views) {
      m.close();
    }
  }
}
