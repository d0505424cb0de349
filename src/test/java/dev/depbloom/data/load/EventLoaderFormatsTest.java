package dev.depbloom.data.load;

import static dev.depbloom.data.DataFiles.fixture;
import static dev.depbloom.data.DataFiles.write;
import static dev.depbloom.data.DataFiles.writeGzip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.Split;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One tiny file per format, with every column of the resulting stream checked. */
class EventLoaderFormatsTest {
  @TempDir Path dir;
  private final List<String> warnings = new ArrayList<>();

  private EventStream load(Path path) {
    return EventLoader.load(path, LoadOptions.defaults().withWarnings(warnings::add));
  }

  private static float[] values(FeatureMatrix m) {
    return ((HeapFeatureMatrix) m).values();
  }

  @Test
  void tglDirectoryReadsEdgesSplitAndBothFeatureFilesByEdgeAndNodeId() {
    EventStream s = load(fixture("tgl-tiny"));
    assertEquals(DataFormat.TGL, s.ingest().format());
    assertArrayEquals(new int[] {0, 1, 0, 2, 3}, s.sources());
    assertArrayEquals(new int[] {1, 2, 2, 3, 0}, s.destinations());
    assertArrayEquals(new double[] {1, 2, 2, 4, 5.5}, s.times());
    assertArrayEquals(new byte[] {0, 0, 0, 1, 2}, s.splitLabels());
    // edge ids in the file are 4, 3, 2, 1, 0: row k of edge_features.pt is [k + 0.5, 10k]
    assertArrayEquals(
        new float[] {4.5f, 40, 3.5f, 30, 2.5f, 20, 1.5f, 10, 0.5f, 0}, values(s.edgeFeatures()));
    assertArrayEquals(
        new float[] {0, 0.25f, 0, 1, 1.25f, -1, 2, 2.25f, -2, 3, 3.25f, -3},
        values(s.nodeFeatures()));
    assertFalse(s.bipartite());
    assertEquals(new Split(3, 4, 5), Split.of(s));
  }

  @Test
  void tglEdgesFileLoadsLikeItsDirectory() {
    EventStream s = load(fixture("tgl-tiny/edges.csv"));
    assertEquals(DataFormat.TGL, s.ingest().format());
    assertEquals(2, s.edgeFeatures().dim());
    assertEquals(3, s.nodeFeatures().dim());
  }

  @Test
  void dyglibReadsFeatureRowsByIdxAndNodeRowsById() {
    EventStream s = load(fixture("dyglib-tiny"));
    assertEquals(DataFormat.DYGLIB, s.ingest().format());
    assertArrayEquals(new long[] {1, 2, 3, 4, 5}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {0, 1, 0, 2}, s.sources());
    assertArrayEquals(new int[] {3, 4, 4, 3}, s.destinations());
    assertArrayEquals(new double[] {0, 1, 1, 2}, s.times());
    assertArrayEquals(new float[] {1, -1, 2, -2, 3, -3, 4, -4}, values(s.edgeFeatures()));
    assertArrayEquals(
        new float[] {1, 2, 0.5f, 2, 4, 0.5f, 3, 6, 0.5f, 4, 8, 0.5f, 5, 10, 0.5f},
        values(s.nodeFeatures()));
    assertTrue(s.bipartite());
    assertEquals(DataFormat.DYGLIB, EventLoader.detectFormat(fixture("dyglib-tiny/ml_tiny.csv")));
  }

  @Test
  void jodieOffsetsItemsAfterUsersWhenTheIdRangesOverlap() {
    Path file =
        write(
            dir,
            "tiny.csv",
            "user_id,item_id,timestamp,state_label,comma_separated_list_of_features\n"
                + "0,0,0.0,0,0.5,1.0\n"
                + "1,0,1.0,0,0.25,2.0\n"
                + "0,1,2.0,1,0.0,3.0\n");
    EventStream s = load(file);
    assertEquals(DataFormat.JODIE, s.ingest().format());
    assertArrayEquals(new long[] {0, 1, 2, 3}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {0, 1, 0}, s.sources());
    assertArrayEquals(new int[] {2, 2, 3}, s.destinations());
    assertArrayEquals(new float[] {0.5f, 1, 0.25f, 2, 0, 3}, values(s.edgeFeatures()));
    assertTrue(s.bipartite());
  }

  @Test
  void jodieLeavesAlreadyOffsetItemsAlone() {
    Path file =
        write(
            dir,
            "offset.csv",
            "user_id,item_id,timestamp,state_label,comma_separated_list_of_features\n"
                + "0,5,0,0\n"
                + "1,6,1,0\n");
    EventStream s = load(file);
    assertArrayEquals(new long[] {0, 1, 5, 6}, s.nodeIds().originalIds());
    assertEquals(0, s.edgeFeatures().dim());
  }

  @Test
  void snapSkipsCommentsSortsByTimeAndKeepsWeightsAsFeatures() {
    Path file = write(dir, "edges.txt", "# from SNAP\n3 1 10 0.5\n1\t3 5 1.5\n\n2 1 5 2.5\n");
    EventStream s = load(file);
    assertEquals(DataFormat.SNAP, s.ingest().format());
    assertArrayEquals(new int[] {0, 1, 2}, s.sources());
    assertArrayEquals(new int[] {2, 0, 0}, s.destinations());
    assertArrayEquals(new double[] {5, 5, 10}, s.times());
    assertArrayEquals(new float[] {1.5f, 2.5f, 0.5f}, values(s.edgeFeatures()));
    assertEquals(1, s.ingest().outOfOrder());
    assertEquals(3, s.ingest().rowsMoved());
    assertEquals(1, warnings.size());
  }

  @Test
  void gzipIsRecognisedByItsMagicBytesNotItsName() {
    Path file = writeGzip(dir, "edges.txt", "1 2 0\n2 3 1\n");
    EventStream s = load(file);
    assertEquals(2, s.eventCount());
    assertArrayEquals(new double[] {0, 1}, s.times());
  }

  @Test
  void snapSignedKeepsTheRatingAsAOneDimFeature() {
    Path file = write(dir, "signed.csv", "1,2,-3,100\n2,1,10,200\n");
    EventStream s = load(file);
    assertEquals(DataFormat.SNAP_SIGNED, s.ingest().format());
    assertArrayEquals(new float[] {-3, 10}, values(s.edgeFeatures()));
    assertArrayEquals(new double[] {100, 200}, s.times());
  }

  @Test
  void headerCsvMapsWellKnownNamesAndKeepsOtherNumericColumnsAsFeatures() {
    Path file =
        write(
            dir,
            "legis.csv",
            "source,destination,timestamp,state_label,w,name\n"
                + "150,91,0,0,53,a\n"
                + "91,150,1,0,87,b\n");
    EventStream s = load(file);
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertArrayEquals(new long[] {91, 150}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {1, 0}, s.sources());
    assertArrayEquals(new float[] {53, 87}, values(s.edgeFeatures()));
    assertFalse(s.bipartite());
    assertEquals(
        List.of(
            file
                + ": column \"name\" is not numeric on line 2; ignored (name the columns with"
                + " --columns to choose)"),
        warnings);
  }

  @Test
  void headerCsvFollowsAnExplicitMappingInItsFeatureOrder() {
    Path file = write(dir, "mapped.csv", "a,b,when,x,y\n1,2,3.5,10,20\n");
    EventStream s =
        EventLoader.load(
            file,
            LoadOptions.defaults()
                .withColumns(ColumnMapping.parse("src=a,dst=b,time=when,features=y+x")));
    assertArrayEquals(new double[] {3.5}, s.times());
    assertArrayEquals(new float[] {20, 10}, values(s.edgeFeatures()));
  }

  @Test
  void aStreamLoadsThroughTheSameTextLoaders() {
    byte[] text = "u,i,ts,label\n0,2,0,0\n1,2,5,0\n".getBytes(StandardCharsets.UTF_8);
    EventStream s =
        EventLoader.load(new ByteArrayInputStream(text), "mem.csv", LoadOptions.defaults());
    assertEquals("mem.csv", s.ingest().source());
    assertEquals(3, s.nodeCount());
    assertTrue(s.bipartite());
  }

  @Test
  void formatDetectionReadsTheDirectoryOrTheFirstContentLine() {
    assertEquals(DataFormat.TGL, EventLoader.detectFormat(fixture("tgl-tiny")));
    assertEquals(DataFormat.DYGLIB, EventLoader.detectFormat(fixture("dyglib-tiny")));
    assertEquals(DataFormat.SNAP, EventLoader.detectFormat(write(dir, "a", "#c\n\n1 2 3\n")));
    assertEquals(DataFormat.SNAP_SIGNED, EventLoader.detectFormat(write(dir, "b", "1,2,3,4\n")));
    assertEquals(DataFormat.CSV, EventLoader.detectFormat(write(dir, "c", "x,y,t\n1,2,3\n")));
    assertEquals(
        DataFormat.JODIE,
        EventLoader.detectFormat(write(dir, "d", "user_id,item_id,timestamp,state_label,f\n")));
    assertTrue(Files.isDirectory(dir));
  }
}
