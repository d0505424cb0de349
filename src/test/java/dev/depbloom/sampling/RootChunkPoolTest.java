package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class RootChunkPoolTest {
  @Test
  void visitsEveryIndexExactlyOnceForAnyThreadCount() {
    for (int threads = 1; threads <= 4; threads++) {
      try (RootChunkPool pool = new RootChunkPool(threads)) {
        for (int n : new int[] {0, 1, 3, 4, 5, 1000, 1001}) {
          AtomicIntegerArray visits = new AtomicIntegerArray(n);
          pool.forEachChunk(
              n,
              (int) RootChunkPool.MIN_CHUNK_WORK, // every index worth a chunk of its own
              (from, to) -> {
                for (int i = from; i < to; i++) {
                  visits.incrementAndGet(i);
                }
              });
          for (int i = 0; i < n; i++) {
            assertEquals(1, visits.get(i), "index " + i + " of " + n + ", threads " + threads);
          }
        }
      }
    }
  }

  @Test
  void keepsWorkSmallerThanTwoChunksOnTheCallingThread() {
    try (RootChunkPool pool = new RootChunkPool(4)) {
      Thread caller = Thread.currentThread();
      AtomicInteger chunks = new AtomicInteger();
      pool.forEachChunk(
          1800,
          10, // 18,000 work units: less than two chunks' worth
          (from, to) -> {
            assertEquals(caller, Thread.currentThread());
            assertEquals(0, from);
            assertEquals(1800, to);
            chunks.incrementAndGet();
          });
      assertEquals(1, chunks.get());
    }
  }

  @Test
  void rethrowsAWorkersFailureAfterEveryChunkHasFinished() {
    try (RootChunkPool pool = new RootChunkPool(4)) {
      AtomicInteger finished = new AtomicInteger();
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  pool.forEachChunk(
                      1000,
                      (int) RootChunkPool.MIN_CHUNK_WORK,
                      (from, to) -> {
                        if (from == 0) {
                          throw new IllegalStateException("chunk 0 failed");
                        }
                        finished.incrementAndGet();
                      }));
      assertEquals("chunk 0 failed", e.getMessage());
      assertEquals(3, finished.get());
    }
  }
}
