package dev.depbloom.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Memory views, row versions, and reads that wait for pending writes. */
class MemoryStoreTest {
  private static MemoryWrite write(int node, double time) {
    return new MemoryWrite(
        new int[] {node},
        new double[] {time},
        Tensors.floats(new float[] {1, 2}, 1, 2),
        new int[] {node},
        new double[] {time},
        Tensors.floats(new float[] {3, 4, 5}, 1, 3));
  }

  @Test
  void aReadWaitingOnAPendingWriteTimesOutNamingTheRoundAndTheRow() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(2, 5, 2, 1, 3, 50);
        MemoryWrite w = write(3, 1.0)) {
      store.announce(1, w);
      store.awaitReadable(0, new int[] {3}, 7); // another view is not blocked
      store.awaitReadable(1, new int[] {0, 1, 2, 4}, 7); // other rows are not blocked
      MemoryReadTimeoutException e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(5),
              () ->
                  assertThrows(
                      MemoryReadTimeoutException.class,
                      () -> store.awaitReadable(1, new int[] {0, 3}, 7)));
      assertEquals(
          "round 7: the read of memory row 3 (memory view 1) waited 50 ms for a pending write"
              + " that was never committed",
          e.getMessage());
    }
  }

  @Test
  void aWaitingReadResumesWhenTheWriteIsCommitted() throws Exception {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(1, 5, 2, 1, 3, 10_000);
        MemoryWrite w = write(2, 4.0)) {
      MemoryStore.PendingWrite pending = store.announce(0, w);
      CompletableFuture<Double> read =
          CompletableFuture.supplyAsync(
              () -> {
                store.awaitReadable(0, new int[] {2}, 1);
                return store.view(0).lastUpdate(2);
              });
      Thread.sleep(100);
      assertTrue(!read.isDone(), "the read must wait for the pending write");
      store.commit(pending);
      assertEquals(4.0, read.get(), "the read sees the committed write");
      assertEquals(2, store.version(0, 2)); // memory and mail of the row changed
      assertEquals(0, store.version(0, 1));
    }
  }

  @Test
  void resettingAViewWithAPendingWriteIsRefused() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(1, 5, 2, 1, 3, 10);
        MemoryWrite w = write(2, 4.0)) {
      store.announce(0, w);
      assertThrows(IllegalStateException.class, () -> store.reset(0));
    }
  }

  @Test
  void viewsAreSeparateCopies() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(2, 5, 2, 1, 3, 10);
        MemoryWrite w = write(2, 4.0)) {
      store.apply(1, w);
      assertEquals(4.0, store.view(1).lastUpdate(2));
      assertEquals(0.0, store.view(0).lastUpdate(2));
      store.reset(1);
      assertEquals(0.0, store.view(1).lastUpdate(2));
      assertEquals(0, store.version(1, 2));
    }
  }

  /**
   * Three views: view 0 wrote node 1, view 2 wrote node 3, nothing else. Each view receives the
   * rows it did not win, memory (2 floats and a time: 16 bytes) and mailbox (one mail of 3 floats
   * and its time, and the ring position: 24 bytes): views 0 and 2 one node each, view 1 two.
   */
  @Test
  void aMergeReportsTheBytesCopiedIntoEachView() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(3, 5, 2, 1, 3, 10);
        MemoryWrite a = write(1, 4.0);
        MemoryWrite b = write(3, 5.0)) {
      store.apply(0, a);
      store.apply(2, b);
      MemoryStore.MergeCost cost = store.mergeLatest(java.util.List.of(0, 1, 2));
      assertEquals(
          java.util.List.of(40L, 80L, 40L),
          java.util.Arrays.stream(cost.viewBytes()).boxed().toList());
      assertEquals(3, cost.viewNanos().length);
      for (int v = 0; v < 3; v++) {
        assertEquals(4.0, store.view(v).lastUpdate(1));
        assertEquals(5.0, store.view(v).lastUpdate(3));
      }
    }
  }
}
