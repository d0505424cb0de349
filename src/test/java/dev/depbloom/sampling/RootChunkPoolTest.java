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
        for (int n : new int[] {0, 1, 63, 64, 129, 1000, 1001}) {
          AtomicIntegerArray visits = new AtomicIntegerArray(n);
          pool.forEachChunk(
              n,
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
  void rethrowsAWorkersFailureAfterEveryChunkHasFinished() {
    try (RootChunkPool pool = new RootChunkPool(4)) {
      AtomicInteger finished = new AtomicInteger();
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  pool.forEachChunk(
                      1000,
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
