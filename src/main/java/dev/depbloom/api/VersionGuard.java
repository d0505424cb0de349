package dev.depbloom.api;

import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Keeps readers off a half-applied batch: a read runs while no batch is being published, and a
 * publish (a batch's memory write, its neighbor index entries, new node ids and the version
 * counter, all at once) waits until no read runs. The batch's computation happens before, outside
 * the guard; only its application is exclusive.
 */
interface VersionGuard {
  /** Runs {@code read} against one version. */
  <T> T read(Supplier<T> read);

  /** Runs {@code change} while no read runs. */
  void publish(Runnable change);

  /** The guard of a predictor: a read-write lock (readers share it; a publish has it alone). */
  static VersionGuard readWriteLock() {
    ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    return new VersionGuard() {
      @Override
      public <T> T read(Supplier<T> read) {
        lock.readLock().lock();
        try {
          return read.get();
        } finally {
          lock.readLock().unlock();
        }
      }

      @Override
      public void publish(Runnable change) {
        lock.writeLock().lock();
        try {
          change.run();
        } finally {
          lock.writeLock().unlock();
        }
      }
    };
  }
}
