package dev.depbloom.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Memory views, row versions, and reads that wait for pending writes. */
class MemoryStoreTest {
  private static MemoryWrite write(int node, double time) {
    return write(node, time, 0, 1);
  }

  /** A write of node {@code node} by event {@code event}, memory {@code [value, value]}. */
  private static MemoryWrite write(int node, double time, int event, float value) {
    return new MemoryWrite(
        new int[] {node},
        new double[] {time},
        new int[] {event},
        Tensors.floats(new float[] {value, value}, 1, 2),
        new int[] {node},
        new double[] {time},
        new int[] {event},
        Tensors.floats(new float[] {value, 4, 5}, 1, 3));
  }

  /** The memory and the mail of node {@code node} in every view, as {@code "memory/mail"}. */
  private static List<String> rowsOf(MemoryStore store, int node) {
    List<String> out = new ArrayList<>();
    for (int v = 0; v < store.viewCount(); v++) {
      float[] memory = Tensors.toFloats(store.view(v).readMemory(new int[] {node}));
      float[] mail = Tensors.toFloats(store.view(v).readMail(new int[] {node}));
      out.add(memory[0] + "/" + mail[0]);
    }
    return out;
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

  /**
   * Coarse time: after a merge every view holds node 3 at time 1; in the next window only view 1
   * rewrites it, again at time 1. View 0's copy is the window-start one and must not compete (a
   * strict comparison of times with ties to the lowest view kept it and discarded view 1's update).
   */
  @Test
  void aViewThatDidNotWriteARowDoesNotCompeteWithItsWindowStartCopy() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(2, 5, 2, 1, 3, 10);
        MemoryWrite first = write(3, 1.0, 1, 1);
        MemoryWrite update = write(3, 1.0, 6, 7)) {
      store.apply(0, first);
      store.mergeLatest(List.of(0, 1));
      assertEquals(List.of("1.0/1.0", "1.0/1.0"), rowsOf(store, 3));
      store.apply(1, update);
      store.mergeLatest(List.of(0, 1));
      assertEquals(List.of("7.0/7.0", "7.0/7.0"), rowsOf(store, 3));
    }
  }

  /** Two views write a node at one time: the write of the later event wins, whichever view. */
  @Test
  void equalTimesAreBrokenByTheStreamIndexOfTheWritingEvent() {
    for (int laterView = 0; laterView < 2; laterView++) {
      try (StepScope scope = new StepScope();
          MemoryStore store = new MemoryStore(2, 5, 2, 1, 3, 10);
          MemoryWrite earlier = write(3, 2.0, 4, 4);
          MemoryWrite later = write(3, 2.0, 5, 5)) {
        store.apply(1 - laterView, earlier);
        store.apply(laterView, later);
        store.mergeLatest(List.of(0, 1));
        assertEquals(List.of("5.0/5.0", "5.0/5.0"), rowsOf(store, 3), "later in " + laterView);
      }
    }
  }

  /** A later time still wins over a later stream index (times never move backwards in a view). */
  @Test
  void aLaterTimeWinsOverAnEqualOrEarlierOne() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(3, 5, 2, 1, 3, 10);
        MemoryWrite a = write(2, 3.0, 9, 1);
        MemoryWrite b = write(2, 4.0, 8, 2);
        MemoryWrite c = write(2, 3.0, 10, 3)) {
      store.apply(0, a);
      store.apply(1, b);
      store.apply(2, c);
      store.mergeLatest(List.of(0, 1, 2));
      assertEquals(List.of("2.0/2.0", "2.0/2.0", "2.0/2.0"), rowsOf(store, 2));
    }
  }

  /**
   * A replay of an event (a prefill) ties with the owner's training write of the same event in time
   * and stream index; the training write wins, in whichever view it is, also over a copy of the
   * replayed row handed on to a third view.
   */
  @Test
  void aReplayedRowNeverBeatsTheTrainingWriteOfTheSameEvent() {
    for (int trainingView = 0; trainingView < 2; trainingView++) {
      try (StepScope scope = new StepScope();
          MemoryStore store = new MemoryStore(3, 5, 2, 1, 3, 10);
          MemoryWrite trained = write(1, 2.0, 7, 7);
          MemoryWrite replayed = write(1, 2.0, 7, 6)) {
        store.apply(trainingView, trained, 0, WriteOrigin.TRAINING);
        store.apply(1 - trainingView, replayed, 0, WriteOrigin.REPLAY);
        store.copyWritten(1 - trainingView, 2);
        store.mergeLatest(List.of(0, 1, 2));
        assertEquals(
            List.of("7.0/7.0", "7.0/7.0", "7.0/7.0"),
            rowsOf(store, 1),
            "trained in " + trainingView);
      }
    }
  }

  /** Only the part of a row that a view wrote competes: mail without memory leaves memory alone. */
  @Test
  void memoryAndMailboxOfARowAreMergedFromTheirOwnWriters() {
    try (StepScope scope = new StepScope();
        MemoryStore store = new MemoryStore(2, 5, 2, 1, 3, 10);
        MemoryWrite memory = write(4, 1.0, 2, 2);
        MemoryWrite mailOnly =
            new MemoryWrite(
                new int[0],
                new double[0],
                new int[0],
                Tensors.floats(new float[0], 0, 2),
                new int[] {4},
                new double[] {1.0},
                new int[] {3},
                Tensors.floats(new float[] {9, 4, 5}, 1, 3))) {
      store.apply(0, memory);
      store.apply(1, mailOnly);
      MemoryStore.MergeCost cost = store.mergeLatest(List.of(0, 1));
      assertEquals(List.of("2.0/9.0", "2.0/9.0"), rowsOf(store, 4));
      // view 0 receives a mailbox (24 bytes), view 1 a memory row (16 bytes)
      assertEquals(List.of(24L, 16L), java.util.Arrays.stream(cost.viewBytes()).boxed().toList());
    }
  }
}
