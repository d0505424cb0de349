package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.tensor.ThreadBudget;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** When a run's figures depend on its thread settings, and what the note says then. */
@Tag(Kernels.TRAINS)
class WorkerInvarianceTest {
  @Test
  void oneThreadOfEachPoolPerItemAndFewerThanTwoWorkersPerDeviceDependOnTheDevicesAlone() {
    assertNull(WorkerInvariance.of(new ThreadBudget(1, 1, 1), 2, 1).note());
    assertNull(WorkerInvariance.of(new ThreadBudget(1, 1, 2), 2, 1).note());
    assertNull(WorkerInvariance.of(new ThreadBudget(1, 1, 3), 2, 1).note()); // floor(3/2) = 1
    assertNull(WorkerInvariance.of(new ThreadBudget(1, 1, 1), 1, 1).note());
    assertTrue(WorkerInvariance.of(new ThreadBudget(1, 1, 4), 4, 1).holds());
  }

  @Test
  void moreThanOneThreadPerItemIsNamedWithItsCounts() {
    WorkerInvariance w = WorkerInvariance.of(new ThreadBudget(1, 2, 1), 2, 1);
    assertFalse(w.holds());
    assertTrue(
        w.note().startsWith("results depend on the thread settings, not on the logical devices"),
        w.note());
    assertTrue(
        w.note().contains("threads 1,2 run every work item with intra-op 1 + BLAS 2 threads"),
        w.note());
    assertFalse(w.note().contains("shards"), w.note());
  }

  @Test
  void twiceAsManyWorkersAsDevicesSplitItemsIntoShardsAndSaySo() {
    WorkerInvariance w = WorkerInvariance.of(new ThreadBudget(1, 1, 2), 1, 1);
    assertTrue(
        w.note()
            .endsWith(
                "2 workers for 1 logical device split each work item into 2 event"
                    + " shards (with at most 1 worker in all, items stay whole)"),
        w.note());
    // ranks count as one process of all their workers: 2 x 3 workers for 2 devices, 3 shards
    assertTrue(
        WorkerInvariance.of(new ThreadBudget(1, 1, 3), 2, 2)
            .note()
            .contains("6 workers (2 processes) for 2 logical devices split each work item into 3"),
        "");
  }

  @Test
  void bothReasonsShareOneLine() {
    String note = WorkerInvariance.of(new ThreadBudget(2, 2, 2), 1, 1).note();
    assertEquals(1, note.lines().count());
    assertTrue(note.contains("BLAS 2") && note.contains("2 event shards"), note);
  }
}
