package dev.depbloom.device;

import dev.depbloom.tensor.C10dBackends;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.bytedeco.pytorch.Store;

/**
 * Heartbeats of a run's ranks through the rendezvous store, so that a rank that dies or hangs is
 * named instead of waited for. Every {@code interval} this rank's thread (with its own store
 * connection) sets {@code depbloom/heartbeat/RANK} to a beat count and where the rank is (epoch and
 * round), and reads every other rank's. A rank whose count has not moved for {@code stall} and that
 * has not said it finished ({@code depbloom/done/RANK}) is taken for dead or hung: {@code onStall}
 * gets a one-line message naming it (the command line prints it and exits), also while this rank
 * computes and no collective would notice. A store that cannot be reached means rank 0, which
 * serves it, is gone. A rank that fails says why under {@code depbloom/failed/RANK}.
 */
final class RankWatchdog implements AutoCloseable {
  static final String HEARTBEAT = "depbloom/heartbeat/";
  static final String DONE = "depbloom/done/";
  static final String FAILED = "depbloom/failed/";

  private final Store store; // this thread's own connection
  private final int rank;
  private final int worldSize;
  private final String master;
  private final Duration interval;
  private final Duration stall;
  private final Supplier<String> where;
  private final Consumer<String> onStall;
  private final long[] beats; // last count seen per rank
  private final long[] changedAt; // System.nanoTime() of its last change
  private final String[] lastWhere; // where each rank said it was
  private volatile long storeFailingSince = -1;
  private volatile boolean running = true;
  private final Thread thread;

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
    long now = System.nanoTime();
    java.util.Arrays.fill(changedAt, now);
    java.util.Arrays.fill(lastWhere, "start-up");
    beat(0);
    this.thread = new Thread(this::loop, "depbloom-rank-watchdog");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long count = 1;
    while (running) {
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      if (!running) {
        return;
      }
      String message = tick(count++);
      if (message != null && running) {
        running = false;
        onStall.accept(message);
        return;
      }
    }
  }

  /** One beat and one look at the others; a message when one of them stopped. */
  private String tick(long count) {
    try {
      beat(count);
      observe();
      storeFailingSince = -1;
    } catch (RuntimeException e) {
      long now = System.nanoTime();
      if (storeFailingSince < 0) {
        storeFailingSince = now;
      }
      if (now - storeFailingSince > stall.toNanos()) {
        return storeGone();
      }
      return null;
    }
    List<Integer> stopped;
    try {
      stopped = stopped(stall, store);
    } catch (RuntimeException e) {
      return null; // judged on the next tick
    }
    if (stopped.isEmpty()) {
      return null;
    }
    return describe(stopped)
        + " (no heartbeat for "
        + stall.toSeconds()
        + " s); rank "
        + rank
        + " stops at "
        + where.get();
  }

  private void beat(long count) {
    C10dBackends.set(store, HEARTBEAT + rank, count + " " + where.get());
  }

  /** Reads the other ranks' beats (those that have one yet). */
  private synchronized void observe() {
    long now = System.nanoTime();
    for (int r = 0; r < worldSize; r++) {
      if (r == rank || !C10dBackends.exists(store, List.of(HEARTBEAT + r))) {
        continue;
      }
      String[] v = C10dBackends.get(store, HEARTBEAT + r).split(" ", 2);
      long count = Long.parseLong(v[0]);
      if (count != beats[r]) {
        beats[r] = count;
        changedAt[r] = now;
      }
      lastWhere[r] = v.length > 1 ? v[1] : "?";
    }
  }

  /** Ranks whose beat has not moved for {@code quiet} and that have not finished. */
  private synchronized List<Integer> stopped(Duration quiet, Store via) {
    long now = System.nanoTime();
    List<Integer> out = new ArrayList<>();
    for (int r = 0; r < worldSize; r++) {
      if (r != rank
          && now - changedAt[r] > quiet.toNanos()
          && !C10dBackends.exists(via, List.of(DONE + r))) {
        out.add(r);
      }
    }
    return out;
  }

  private String describe(List<Integer> ranks) {
    StringBuilder s = new StringBuilder();
    for (int r : ranks) {
      s.append(s.length() == 0 ? "" : "; ");
      s.append("rank ").append(r).append(" stopped responding, last at ").append(lastWhere[r]);
    }
    return s.toString();
  }

  private String storeGone() {
    return "rank 0 stopped: its store at "
        + master
        + " cannot be reached; rank "
        + rank
        + " stops at "
        + where.get();
  }

  /**
   * Why a collective failed, naming ranks: one that said it failed, else ones whose heartbeat stops
   * within {@code patience}, else rank 0 when the store is gone, else where every rank was.
   */
  String explain(Store mainStore, Duration patience) {
    try {
      for (int r = 0; r < worldSize; r++) {
        if (r != rank && C10dBackends.exists(mainStore, List.of(FAILED + r))) {
          return "rank " + r + " failed: " + C10dBackends.get(mainStore, FAILED + r);
        }
      }
    } catch (RuntimeException e) {
      return storeGone();
    }
    Duration quiet = interval.multipliedBy(3);
    long deadline = System.nanoTime() + patience.toNanos();
    do {
      long failing = storeFailingSince;
      if (failing >= 0 && System.nanoTime() - failing > quiet.toNanos()) {
        return storeGone();
      }
      List<Integer> stopped;
      try {
        stopped = stopped(quiet, mainStore);
      } catch (RuntimeException e) {
        return storeGone();
      }
      if (!stopped.isEmpty()) {
        return describe(stopped);
      }
      try {
        Thread.sleep(interval.toMillis() / 2 + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    } while (System.nanoTime() < deadline);
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

  /** Tells the others why this rank fails (best effort: the store may be gone). */
  void markFailed(Store mainStore, String message) {
    try {
      C10dBackends.set(mainStore, FAILED + rank, message);
    } catch (RuntimeException e) {
      // the store is gone: the others will find this rank's heartbeat stopped instead
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(interval.toMillis() * 4 + 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
