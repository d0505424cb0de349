package dev.depbloom.data.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStoreReaderErrorTest {
  @TempDir Path dir;
  Path store;
  Path manifest;

  @BeforeEach
  void writeStore() throws IOException {
    store = dir.resolve("store");
    manifest = store.resolve("manifest.json");
    EventStoreWriter.write(TinyEventStreams.full(), store);
  }

  private DataFormatException readFails(ChecksumScope scope) {
    return assertThrows(DataFormatException.class, () -> EventStoreReader.read(store, scope));
  }

  private void editManifest(String from, String to) throws IOException {
    String json = Files.readString(manifest);
    assertTrue(json.contains(from), from);
    Files.writeString(manifest, json.replace(from, to));
  }

  @Test
  void missingDirectoryIsNamed() {
    store = dir.resolve("nowhere");
    DataFormatException e = readFails(ChecksumScope.EVENT_COLUMNS);
    assertEquals(store + ": no such event store directory", e.getMessage());
  }

  @Test
  void missingManifestIsNamed() throws IOException {
    Files.delete(manifest);
    DataFormatException e = readFails(ChecksumScope.EVENT_COLUMNS);
    assertEquals(manifest.toString(), e.source());
    assertEquals(
        manifest + ": missing: an event store directory holds a manifest.json", e.getMessage());
  }

  @Test
  void manifestThatIsNotJsonNamesItsLine() throws IOException {
    Files.writeString(manifest, "{\n  \"format\": \"depbloom-event-store\",\n  oops\n}");
    DataFormatException e = readFails(ChecksumScope.EVENT_COLUMNS);
    assertEquals(manifest.toString(), e.source());
    assertEquals(3, e.line());
  }

  @Test
  void otherVersionIsRejected() throws IOException {
    editManifest("\"version\" : 1", "\"version\" : 2");
    assertEquals(
        manifest + ": field version is 2: this build reads event store version 1",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void otherFormatIsRejected() throws IOException {
    editManifest("depbloom-event-store", "something-else");
    assertEquals(
        manifest + ": field format is 'something-else', expected 'depbloom-event-store'",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void missingFieldIsNamed() throws IOException {
    editManifest("\"eventCount\" : 3,", "");
    DataFormatException e = readFails(ChecksumScope.EVENT_COLUMNS);
    assertTrue(e.getMessage().startsWith(manifest + ": field eventCount: "), e.getMessage());
  }

  @Test
  void countThatDisagreesWithAColumnShapeIsNamed() throws IOException {
    editManifest("\"eventCount\" : 3", "\"eventCount\" : 4");
    assertEquals(
        manifest + ": field columns.src.shape is [3], expected [4] from the manifest's counts",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void wrongDtypeIsNamed() throws IOException {
    editManifest("\"dtype\" : \"float64\"", "\"dtype\" : \"float32\"");
    assertEquals(
        manifest + ": field columns.time.dtype is float32, expected float64",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void columnFileOutsideTheStoreIsRefused() throws IOException {
    editManifest("\"file\" : \"src.i32\"", "\"file\" : \"../src.i32\"");
    assertEquals(
        manifest
            + ": field columns.src.file must name a file inside the store directory,"
            + " got ../src.i32",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void truncatedColumnIsNamed() throws IOException {
    Path dst = store.resolve("dst.i32");
    try (FileChannel ch = FileChannel.open(dst, StandardOpenOption.WRITE)) {
      ch.truncate(8);
    }
    assertEquals(
        dst + ": has 8 bytes, expected 12 for int32 [3] (truncated)",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void missingColumnFileIsNamed() throws IOException {
    Files.delete(store.resolve("split.u8"));
    assertEquals(
        store.resolve("split.u8") + ": missing: the manifest lists this column file",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void corruptTimeColumnIsDetectedByItsChecksum() throws IOException {
    Path time = store.resolve("time.f64");
    flipOneBit(time, 20);
    assertEquals(
        time + ": corrupt: CRC32C of the file is " + crc(time) + ", the manifest says 4e3254b0",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void corruptFeaturesAreDetectedOnlyWhenAllColumnsAreVerified() throws IOException {
    Path features = store.resolve("edge_features.f32");
    flipOneBit(features, 3);
    EventStoreReader.read(store, ChecksumScope.EVENT_COLUMNS);
    DataFormatException e = readFails(ChecksumScope.ALL_COLUMNS);
    assertEquals(features.toString(), e.source());
  }

  @Test
  void columnsThatBreakAnInvariantAreReportedForTheStore() throws IOException {
    Path src = store.resolve("src.i32");
    ByteBuffer ids = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    ids.putInt(0).putInt(0).putInt(9).flip();
    Files.write(src, ids.array());
    editManifest("f6251fe5", crc(src));
    assertEquals(
        store + ": the columns break an event stream invariant: event 2 has a node id outside 0..3",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void nodeIdsOutOfOrderAreRejected() throws IOException {
    Path ids = store.resolve("node_ids.i64");
    ByteBuffer values = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    values.putLong(42).putLong(7).putLong(1000).putLong(5_000_000_000L).flip();
    Files.write(ids, values.array());
    editManifest("b12a1067", crc(ids));
    assertEquals(
        ids + ": node ids must be strictly increasing (dense id = rank of the original id)",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  @Test
  void featureColumnWithoutItsDimIsInconsistent() throws IOException {
    editManifest("\"nodeFeatureDim\" : 3", "\"nodeFeatureDim\" : 0");
    assertEquals(
        manifest
            + ": field columns.node_features is present but must be present exactly when"
            + " nodeFeatureDim > 0",
        readFails(ChecksumScope.EVENT_COLUMNS).getMessage());
  }

  private static void flipOneBit(Path file, int offset) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[offset] ^= 0x10;
    Files.write(file, bytes);
  }

  private static String crc(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(Files.readAllBytes(file));
    return String.format("%08x", crc.getValue());
  }
}
