package dev.depbloom.device;

import dev.depbloom.tensor.C10dBackends;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.bytedeco.pytorch.Store;

/**
 * Heartbeats of a run's ranks through the rendezvous store, so that a rank that dies or hangs is
 * named instead of waited for. Every {@code interval} a beat thread (with its own store connection)
 * sets {@code depbloom/heartbeat/RANK} to a beat count and where the rank is (epoch and round), and
 * reads the other ranks' beats, their {@code depbloom/done/RANK} marks (a rank that stops on
 * purpose) and {@code depbloom/failed/RANK} reasons. A monitor thread judges from what was read,
 * never waiting on the store itself: a rank whose count has not moved for {@code stall} and that is
 * not done is taken for dead or hung, and a beat that has not completed for {@code stall} means the
 * store, which rank 0 serves, is gone or hangs (a store call to a stopped server may never return).
 * Either way {@code onStall} gets a one-line message naming the rank (the command line prints it
 * and exits), also while this rank computes and no collective would notice.
 */
final class RankWatchdog implements AutoCloseable {
  static final String HEARTBEAT = "depbloom/heartbeat/";
  static final String DONE = "depbloom/done/";
  static final String FAILED = "depbloom/failed/";

  private final Store store; // the beat thread's own connection
  private final int rank;
  private final int worldSize;
  private final String master;
  private final Duration interval;
  private final Duration stall;
  private final Supplier<String> where;
  private final Consumer<String> onStall;
  // What the beat thread last read, guarded by this:
  private final long[] beats; // last count seen per rank
  private final long[] changedAt; // System.nanoTime() of its last change
  private final String[] lastWhere; // where each rank said it was
  private final boolean[] done;
  private final String[] failed; // a rank's own reason, or null
  private volatile long beatCompletedAt;
  private volatile boolean running = true;
  private final Thread beater;
  private final Thread monitor;

  RankWatchdog(
      Store store,
      int rank,
      int worldSize,
      String master,
      Duration interval,
      Duration stall,
      Supplier<String> where,
      Consumer<String> onStall) {
    this.store = store;
    this.rank = rank;
    this.worldSize = worldSize;
    this.master = master;
    this.interval = interval;
    this.stall = stall;
    this.where = where;
    this.onStall = onStall;
    this.beats = new long[worldSize];
    this.changedAt = new long[worldSize];
    this.lastWhere = new String[worldSize];
    this.done = new boolean[worldSize];
    this.failed = new String[worldSize];
    long now = System.nanoTime();
    Arrays.fill(changedAt, now);
    Arrays.fill(lastWhere, "start-up");
    beat(0);
    this.beatCompletedAt = System.nanoTime();
    this.beater = daemon("depbloom-rank-heartbeat", this::beatLoop);
    this.monitor = daemon("depbloom-rank-watchdog", this::monitorLoop);
  }

  private static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void beatLoop() {
    for (long count = 1; running; count++) {
      if (!pause()) {
        return;
      }
      try {
        beat(count);
        observe();
        beatCompletedAt = System.nanoTime();
      } catch (RuntimeException e) {
        // the store did not answer: the monitor judges by how long ago a beat completed
      }
    }
  }

  private void monitorLoop() {
    while (running) {
      if (!pause()) {
        return;
      }
      String message = stopped(stall);
      if (message != null && running) {
        running = false;
        onStall.accept(
            message
                + " (no heartbeat for "
                + stall.toSeconds()
                + " s); rank "
                + rank
                + " stops at "
                + where.get());
        return;
      }
    }
  }

  private boolean pause() {
    try {
      Thread.sleep(interval.toMillis());
      return running;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private void beat(long count) {
    C10dBackends.set(store, HEARTBEAT + rank, count + " " + where.get());
  }

  /** Reads the other ranks' beats, done marks and failure reasons. */
  private void observe() {
    for (int r = 0; r < worldSize; r++) {
      if (r == rank) {
        continue;
      }
      String beat =
          C10dBackends.exists(store, List.of(HEARTBEAT + r))
              ? C10dBackends.get(store, HEARTBEAT + r)
              : null;
      boolean isDone = C10dBackends.exists(store, List.of(DONE + r));
      String reason =
          C10dBackends.exists(store, List.of(FAILED + r))
              ? C10dBackends.get(store, FAILED + r)
              : null;
      synchronized (this) {
        if (beat != null) {
          String[] v = beat.split(" ", 2);
          long count = Long.parseLong(v[0]);
          if (count != beats[r]) {
            beats[r] = count;
            changedAt[r] = System.nanoTime();
          }
          lastWhere[r] = v.length > 1 ? v[1] : "?";
        }
        done[r] = isDone;
        failed[r] = reason;
      }
    }
  }

  /**
   * Who stopped, from what the beat thread read: the store when no beat completed for {@code
   * quiet}, else the ranks whose beat has not moved for {@code quiet} and that are not done; null
   * if none.
   */
  private synchronized String stopped(Duration quiet) {
    long now = System.nanoTime();
    if (now - beatCompletedAt > quiet.toNanos()) {
      return storeGone();
    }
    StringBuilder s = new StringBuilder();
    for (int r = 0; r < worldSize; r++) {
      if (r != rank && !done[r] && now - changedAt[r] > quiet.toNanos()) {
        s.append(s.length() == 0 ? "" : "; ");
        s.append("rank ").append(r).append(" stopped responding, last at ").append(lastWhere[r]);
      }
    }
    return s.length() == 0 ? null : s.toString();
  }

  private String storeGone() {
    return "rank 0 stopped: its store at " + master + " does not answer";
  }

  /**
   * Why a collective failed, naming ranks: one that said why it failed, else ones whose heartbeat
   * stops within {@code patience}, else where every rank was. Never waits on the store.
   */
  String explain(Duration patience) {
    Duration quiet = interval.multipliedBy(3);
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      synchronized (this) {
        for (int r = 0; r < worldSize; r++) {
          if (r != rank && failed[r] != null) {
            return "rank " + r + " failed: " + failed[r];
          }
        }
      }
      String stopped = stopped(quiet);
      if (stopped != null) {
        return stopped;
      }
      if (System.nanoTime() > deadline) {
        break;
      }
      try {
        Thread.sleep(interval.toMillis() / 2 + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    StringBuilder s = new StringBuilder("every rank still sends heartbeats; last seen at");
    synchronized (this) {
      for (int r = 0; r < worldSize; r++) {
        if (r != rank) {
          s.append(" rank ").append(r).append(": ").append(lastWhere[r]).append(';');
        }
      }
    }
    s.setLength(s.length() - 1);
    return s.toString();
  }

  /** Tells the others this rank stops on purpose: its heartbeat may end. */
  void markDone(Store mainStore) {
    C10dBackends.set(mainStore, DONE + rank, "1");
  }

  /**
   * Tells the others why this rank fails: best effort, given at most {@code interval} x 4 (the
   * store may be gone, or hang).
   */
  void markFailed(Store mainStore, String message) {
    Thread t =
        daemon(
            "depbloom-rank-failure",
            () -> {
              try {
                C10dBackends.set(mainStore, FAILED + rank, message);
              } catch (RuntimeException e) {
                // the store is gone: the others find this rank's heartbeat stopped instead
              }
            });
    try {
      t.join(interval.toMillis() * 4);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    running = false;
    monitor.interrupt();
    beater.interrupt();
    try {
      monitor.join(interval.toMillis() * 4 + 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
