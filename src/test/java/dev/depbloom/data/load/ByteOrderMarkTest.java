package dev.depbloom.data.load;

import static dev.depbloom.data.DataFiles.fixture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spreadsheet programs start a UTF-8 CSV with a byte-order mark (EF BB BF); every text format reads
 * such a file as it reads the same file without one.
 */
class ByteOrderMarkTest {
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  @TempDir Path dir;
  private final List<String> warnings = new ArrayList<>();

  private EventStream load(Path path) {
    return EventLoader.load(path, LoadOptions.defaults().withWarnings(warnings::add));
  }

  /** The fixture's bytes without their leading byte-order mark, as a file in the temp folder. */
  private Path withoutMark(Path marked) throws IOException {
    byte[] bytes = Files.readAllBytes(marked);
    assertArrayEquals(BOM, Arrays.copyOf(bytes, 3), marked + " must start with a BOM");
    return Files.write(
        dir.resolve("plain-" + marked.getFileName()), Arrays.copyOfRange(bytes, 3, bytes.length));
  }

  private static Path withMark(Path file, byte[] content) throws IOException {
    byte[] marked = Arrays.copyOf(BOM, BOM.length + content.length);
    System.arraycopy(content, 0, marked, BOM.length, content.length);
    return Files.write(file, marked);
  }

  private static void assertSameEvents(EventStream expected, EventStream actual) {
    assertEquals(expected.ingest().format(), actual.ingest().format());
    assertArrayEquals(expected.sources(), actual.sources());
    assertArrayEquals(expected.destinations(), actual.destinations());
    assertArrayEquals(expected.times(), actual.times());
    assertEquals(expected.nodeCount(), actual.nodeCount());
    assertEquals(expected.edgeFeatures().dim(), actual.edgeFeatures().dim());
    float[] a = new float[expected.edgeFeatures().dim()];
    float[] b = new float[a.length];
    for (int e = 0; e < expected.eventCount(); e++) {
      expected.edgeFeatures().copyRow(e, a, 0);
      actual.edgeFeatures().copyRow(e, b, 0);
      assertArrayEquals(a, b, "edge features of event " + e);
    }
  }

  @Test
  void aHeaderCsvWithAByteOrderMarkLoadsLikeTheSameFileWithout() throws IOException {
    Path marked = fixture("cuts/USLegis-head5-bom.csv");
    EventStream s = load(marked);
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertEquals(5, s.eventCount());
    assertEquals(1, s.edgeFeatures().dim()); // w; "source" is still the source column
    float[] first = new float[1];
    s.edgeFeatures().copyRow(0, first, 0);
    assertEquals(53f, first[0]);
    assertEquals(List.of(), warnings);
    assertSameEvents(load(withoutMark(marked)), s);
  }

  @Test
  void aSnapEdgeListWithAByteOrderMarkLoadsLikeTheSameFileWithout() throws IOException {
    Path marked = fixture("cuts/CollegeMsg-head5-bom.txt");
    EventStream s = load(marked);
    assertEquals(DataFormat.SNAP, s.ingest().format());
    assertEquals(5, s.eventCount());
    assertEquals(1_082_040_961.0, s.times()[0]);
    assertEquals(1L, s.nodeIds().originalId(s.sources()[0]));
    assertSameEvents(load(withoutMark(marked)), s);
  }

  @Test
  void aJodieFileWithAByteOrderMarkIsStillDetectedAsJodie() throws IOException {
    Path plain = fixture("cuts/lastfm_head40.csv");
    Path marked = withMark(dir.resolve("lastfm.csv"), Files.readAllBytes(plain));
    EventStream s = load(marked);
    assertEquals(DataFormat.JODIE, s.ingest().format());
    assertSameEvents(load(plain), s);
  }

  @Test
  void aSignedEdgeListWithAByteOrderMarkLoadsLikeTheSameFileWithout() throws IOException {
    Path plain = fixture("cuts/soc-sign-bitcoinotc-head300.csv");
    Path marked = withMark(dir.resolve("signed.csv"), Files.readAllBytes(plain));
    assertSameEvents(load(plain), load(marked));
  }

  @Test
  void aTglEdgesFileWithAByteOrderMarkKeepsItsEdgeIdColumnOutOfTheFeatures() throws IOException {
    Path tgl = Files.createDirectory(dir.resolve("tgl"));
    for (String name : List.of("edge_features.pt", "node_features.pt")) {
      Files.copy(fixture("tgl-tiny/" + name), tgl.resolve(name));
    }
    withMark(tgl.resolve("edges.csv"), Files.readAllBytes(fixture("tgl-tiny/edges.csv")));
    EventStream s = load(tgl);
    assertEquals(DataFormat.TGL, s.ingest().format());
    assertEquals(DataFormat.TGL, EventLoader.detectFormat(tgl.resolve("edges.csv")));
    assertSameEvents(load(fixture("tgl-tiny")), s);
    assertArrayEquals(new byte[] {0, 0, 0, 1, 2}, s.splitLabels());
  }

  @Test
  void aByteOrderMarkInsideAGzipStreamIsSkippedToo() throws IOException {
    Path plain = fixture("cuts/USLegis-head5-bom.csv");
    ByteArrayOutputStream gzip = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gzip)) {
      out.write(Files.readAllBytes(plain));
    }
    EventStream fromStream =
        EventLoader.load(
            new ByteArrayInputStream(gzip.toByteArray()), "legis.csv.gz", LoadOptions.defaults());
    assertSameEvents(load(withoutMark(plain)), fromStream);
    assertTrue(fromStream.ingest().source().endsWith("legis.csv.gz"));
  }
}
