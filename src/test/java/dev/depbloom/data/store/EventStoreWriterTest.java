package dev.depbloom.data.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStoreWriterTest {
  @TempDir Path dir;

  /** Edge features whose reads fail: the writer has written the event columns by then. */
  private static EventStream failingMidway() {
    EventStream good = TinyEventStreams.full();
    FeatureMatrix broken =
        new FeatureMatrix() {
          @Override
          public long rows() {
            return good.eventCount();
          }

          @Override
          public int dim() {
            return 2;
          }

          @Override
          public void copyRow(long row, float[] dst, int offset) {
            throw new IllegalStateException("features unreadable");
          }

          @Override
          public void gather(int[] rowIds, int count, FloatBuffer dst) {
            throw new IllegalStateException("features unreadable");
          }
        };
    return good.withEdgeFeatures(broken);
  }

  @Test
  void failedWriteLeavesNothingBehind() {
    Path out = dir.resolve("store");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> EventStoreWriter.write(failingMidway(), out));
    assertEquals("features unreadable", e.getMessage());
    assertEquals(List.of(), listing(dir));
  }

  @Test
  void failedReplaceKeepsTheOldStore() throws IOException {
    Path out = dir.resolve("store");
    EventStoreWriter.write(TinyEventStreams.bare(), out);
    assertThrows(
        IllegalStateException.class, () -> EventStoreWriter.write(failingMidway(), out, true));
    assertEquals(List.of("store"), listing(dir));
    assertArrayEquals(new int[] {0, 1, 2, 0}, EventStoreReader.read(out).sources());
  }

  @Test
  void refusesToOverwriteANonEmptyDirectory() throws IOException {
    Path out = Files.createDirectory(dir.resolve("store"));
    Files.writeString(out.resolve("notes.txt"), "keep me");
    InputException e =
        assertThrows(
            InputException.class, () -> EventStoreWriter.write(TinyEventStreams.bare(), out));
    assertEquals(
        out + ": exists and is not empty; refusing to overwrite it (--force replaces a store)",
        e.getMessage());
    assertEquals("keep me", Files.readString(out.resolve("notes.txt")));
  }

  @Test
  void refusesToReplaceADirectoryThatIsNotAStoreEvenWhenAsked() throws IOException {
    Path out = Files.createDirectory(dir.resolve("home"));
    Files.writeString(out.resolve("notes.txt"), "keep me");
    InputException e =
        assertThrows(
            InputException.class, () -> EventStoreWriter.write(TinyEventStreams.bare(), out, true));
    assertEquals(
        out
            + ": is not an event store (no manifest.json); refusing to replace it even with --force",
        e.getMessage());
    assertEquals(List.of("home"), listing(dir));
  }

  @Test
  void replacesAnExistingStoreWhenAsked() throws IOException {
    Path out = dir.resolve("store");
    EventStoreWriter.write(TinyEventStreams.full(), out);
    EventStoreWriter.write(TinyEventStreams.bare(), out, true);
    assertEquals(List.of("store"), listing(dir));
    assertArrayEquals(new int[] {0, 1, 2, 0}, EventStoreReader.read(out).sources());
    assertEquals(
        List.of("dst.i32", "manifest.json", "node_ids.i64", "src.i32", "time.f64"), listing(out));
  }

  @Test
  void writesIntoAnEmptyDirectoryAndCreatesParents() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    EventStoreWriter.write(TinyEventStreams.bare(), empty);
    EventStoreWriter.write(TinyEventStreams.bare(), dir.resolve("a/b/store"));
    assertArrayEquals(new double[] {0, 0, 10, 11}, EventStoreReader.read(empty).times());
    assertArrayEquals(
        new double[] {0, 0, 10, 11}, EventStoreReader.read(dir.resolve("a/b/store")).times());
  }

  private static List<String> listing(Path dir) {
    try {
      return EventStoreRoundTripTest.fileNames(dir);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
