package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SnapshotWindowsTest {
  @Test
  void threeSnapshotsOfTenTileTheThirtyBeforeTheQueryTimeOldestFirst() {
    SnapshotWindows w = new SnapshotWindows(3, 10);
    assertEquals(70, w.windowStart(100, 0));
    assertEquals(80, w.windowEnd(100, 0));
    assertEquals(80, w.windowStart(100, 1));
    assertEquals(90, w.windowEnd(100, 1));
    assertEquals(90, w.windowStart(100, 2));
    assertEquals(100, w.windowEnd(100, 2));
  }

  @Test
  void noWindowsMeansEverythingBeforeTheQueryTime() {
    assertFalse(SnapshotWindows.NONE.windowed());
    assertEquals(Double.NEGATIVE_INFINITY, SnapshotWindows.NONE.windowStart(100, 0));
    assertEquals(100, SnapshotWindows.NONE.windowEnd(100, 0));
  }

  @Test
  void rejectsSeveralSnapshotsWithoutADurationAndNegativeValues() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SnapshotWindows(3, 0));
    assertEquals(
        "history 3 needs a positive duration (the snapshot window length)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SnapshotWindows(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new SnapshotWindows(1, -1));
    assertThrows(IllegalArgumentException.class, () -> new SnapshotWindows(1, Double.NaN));
  }
}
