package dev.depbloom.data.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.IngestReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStoreRoundTripTest {
  @TempDir Path dir;

  @Test
  void everyColumnComesBackExactly() throws IOException {
    EventStream written = TinyEventStreams.full();
    EventStoreWriter.write(written, dir.resolve("store"));
    EventStream read = EventStoreReader.read(dir.resolve("store"), ChecksumScope.ALL_COLUMNS);

    assertArrayEquals(new int[] {0, 0, 1}, read.sources());
    assertArrayEquals(new int[] {2, 3, 3}, read.destinations());
    assertArrayEquals(new double[] {1.5, 1.5, 3.25}, read.times());
    assertArrayEquals(new byte[] {0, 1, 2}, read.splitLabels());
    assertArrayEquals(new long[] {7, 42, 1000, 5_000_000_000L}, read.nodeIds().originalIds());
    assertTrue(read.bipartite());
    assertEquals(new IngestReport("/data/tiny.csv", DataFormat.JODIE, 2, 5), read.ingest());
    assertInstanceOf(MappedFeatureMatrix.class, read.edgeFeatures());
    assertArrayEquals(allRows(written.edgeFeatures()), allRows(read.edgeFeatures()));
    assertArrayEquals(allRows(written.nodeFeatures()), allRows(read.nodeFeatures()));
  }

  @Test
  void streamWithoutOptionalColumnsWritesOnlyTheRequiredFiles() throws IOException {
    EventStoreManifest manifest = EventStoreWriter.write(TinyEventStreams.bare(), dir.resolve("s"));
    EventStream read = EventStoreReader.read(dir.resolve("s"));

    assertEquals(
        List.of("src", "dst", "time", "node_ids"), List.copyOf(manifest.columns().keySet()));
    assertEquals(
        List.of("dst.i32", "manifest.json", "node_ids.i64", "src.i32", "time.f64"),
        fileNames(dir.resolve("s")));
    assertNull(read.splitLabels());
    assertEquals(0, read.edgeFeatures().dim());
    assertEquals(4, read.edgeFeatures().rows());
    assertEquals(0, read.nodeFeatures().dim());
    assertFalse(read.bipartite());
    assertTrue(read.nodeIds().isIdentity());
    assertEquals(new IngestReport("synthetic(test)", null, 0, 0), read.ingest());
    assertArrayEquals(new double[] {0, 0, 10, 11}, read.times());
  }

  @Test
  void manifestMatchesTheGoldenFile() throws IOException {
    EventStoreWriter.write(TinyEventStreams.full(), dir.resolve("store"));
    String actual = Files.readString(dir.resolve("store/manifest.json"));
    assertEquals(golden("tiny-full-manifest.json"), actual.strip());
  }

  @Test
  void columnFilesAreLittleEndian() throws IOException {
    EventStoreWriter.write(TinyEventStreams.full(), dir.resolve("store"));
    assertArrayEquals(
        new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},
        Files.readAllBytes(dir.resolve("store/src.i32")));
    byte[] time = Files.readAllBytes(dir.resolve("store/time.f64"));
    assertArrayEquals( // 1.5 = 0x3FF8000000000000
        new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xF8, 0x3F}, Arrays.copyOf(time, 8));
    byte[] ids = Files.readAllBytes(dir.resolve("store/node_ids.i64"));
    assertArrayEquals( // 5e9 = 0x12A05F200
        new byte[] {0x00, (byte) 0xF2, 0x05, 0x2A, 0x01, 0, 0, 0}, Arrays.copyOfRange(ids, 24, 32));
  }

  @Test
  void storeReadBackWritesTheSameBytesAgain() throws IOException {
    EventStoreWriter.write(TinyEventStreams.full(), dir.resolve("a"));
    EventStoreWriter.write(EventStoreReader.read(dir.resolve("a")), dir.resolve("b"));
    for (String file : fileNames(dir.resolve("a"))) {
      assertArrayEquals(
          Files.readAllBytes(dir.resolve("a").resolve(file)),
          Files.readAllBytes(dir.resolve("b").resolve(file)),
          file);
    }
  }

  static float[] allRows(FeatureMatrix m) {
    int rows = Math.toIntExact(m.rows());
    float[] out = new float[rows * m.dim()];
    for (int r = 0; r < rows; r++) {
      m.copyRow(r, out, r * m.dim());
    }
    return out;
  }

  static List<String> fileNames(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = EventStoreRoundTripTest.class.getResourceAsStream(name)) {
      return new String(Objects.requireNonNull(in, name).readAllBytes(), StandardCharsets.UTF_8)
          .strip();
    }
  }
}
