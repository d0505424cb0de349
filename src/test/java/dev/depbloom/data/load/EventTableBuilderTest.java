package dev.depbloom.data.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventTableBuilderTest {
  private final List<String> warnings = new ArrayList<>();

  private EventTableBuilder builder(LoadOptions options) {
    return new EventTableBuilder("t.csv", DataFormat.CSV, options.withWarnings(warnings::add));
  }

  private static float[] values(FeatureMatrix m) {
    return ((HeapFeatureMatrix) m).values();
  }

  @Test
  void originalIdsBecomeTheirRankAmongDistinctIds() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(2, 100, 7, 1.0);
    b.add(3, 7, 5_000_000_000L, 2.0);
    b.add(4, 42, 100, 3.0);
    EventStream s = b.finish();
    assertArrayEquals(new long[] {7, 42, 100, 5_000_000_000L}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {2, 0, 1}, s.sources());
    assertArrayEquals(new int[] {0, 3, 2}, s.destinations());
  }

  @Test
  void unsortedRowsAreSortedStablyWithCountsAndOneWarning() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.inlineFeatures(1);
    double[] times = {1, 3, 2, 2, 5, 0};
    for (int i = 0; i < times.length; i++) {
      b.add(i + 1, i, i + 10, times[i], new float[] {i});
    }
    EventStream s = b.finish();
    assertArrayEquals(new double[] {0, 1, 2, 2, 3, 5}, s.times());
    assertArrayEquals(new float[] {5, 0, 2, 3, 1, 4}, values(s.edgeFeatures()));
    assertArrayEquals(new int[] {5, 0, 2, 3, 1, 4}, s.sources());
    assertEquals(2, s.ingest().outOfOrder());
    assertEquals(4, s.ingest().rowsMoved()); // rows at times 2 and 2 stay at positions 2, 3
    assertEquals(
        List.of(
            "t.csv: 2 row(s) are earlier than the row before them (first at line 3); sorted"
                + " stably by time, 4 row(s) moved (--strict rejects unsorted input)"),
        warnings);
  }

  @Test
  void sortedInputIsNeitherMovedNorWarnedAbout() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(1, 0, 1, 1.0);
    b.add(2, 1, 0, 1.0);
    EventStream s = b.finish();
    assertEquals(0, s.ingest().outOfOrder());
    assertEquals(0, s.ingest().rowsMoved());
    assertEquals(List.of(), warnings);
  }

  @Test
  void strictRejectsTheFirstOutOfOrderLine() {
    EventTableBuilder b = builder(LoadOptions.defaults().withStrict(true));
    b.add(2, 0, 1, 5.0);
    DataFormatException e = assertThrows(DataFormatException.class, () -> b.add(3, 1, 2, 4.5));
    assertEquals(
        "t.csv:3: time 4.5 is earlier than the previous row's 5.0; --strict expects rows sorted"
            + " by time (without it they are sorted stably)",
        e.getMessage());
  }

  @Test
  void bipartiteIsDetectedWhenNoNodeIsBothSourceAndDestination() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(1, 0, 10, 1.0);
    b.add(2, 1, 10, 2.0);
    assertTrue(b.finish().bipartite());
    EventTableBuilder c = builder(LoadOptions.defaults());
    c.add(1, 0, 10, 1.0);
    c.add(2, 10, 1, 2.0);
    assertFalse(c.finish().bipartite());
  }

  @Test
  void theBipartiteOverrideWins() {
    EventTableBuilder b = builder(LoadOptions.defaults().withBipartite(false));
    b.add(1, 0, 10, 1.0);
    assertFalse(b.finish().bipartite());
  }

  @Test
  void featureTableRowsFollowTheirEventsThroughTheSort() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.featureTable(new HeapFeatureMatrix(new float[] {0, 0, 1, 10, 2, 20}, 3, 2));
    b.splitLabels();
    b.add(2, 0, 1, 2.0, 2, 0);
    b.add(3, 1, 2, 1.0, 0, 0);
    b.add(4, 2, 0, 3.0, 1, 1);
    EventStream s = b.finish();
    assertArrayEquals(new float[] {0, 0, 2, 20, 1, 10}, values(s.edgeFeatures()));
    assertArrayEquals(new byte[] {0, 0, 1}, s.splitLabels());
  }

  @Test
  void aFeatureRowOutsideTheTableNamesTheLine() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.featureTable(new HeapFeatureMatrix(new float[2], 2, 1));
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> b.add(9, 0, 1, 1.0, 2, -1));
    assertEquals(
        "t.csv:9: edge feature row 2 is outside the feature table's rows 0..1", e.getMessage());
  }

  @Test
  void splitLabelsThatGoBackInASortedFileNameTheLine() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.splitLabels();
    b.add(2, 0, 1, 1.0, -1, 1);
    DataFormatException e =
        assertThrows(DataFormatException.class, () -> b.add(3, 0, 1, 2.0, -1, 0));
    assertEquals(
        "t.csv:3: split label (ext_roll) 0 follows 1; expected train, then val, then test rows",
        e.getMessage());
  }

  @Test
  void nodeFeatureRowsArePermutedThroughTheIdMap() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.nodeFeatures(new HeapFeatureMatrix(new float[] {0, 10, 20, 30, 40}, 5, 1));
    b.add(1, 4, 1, 1.0);
    EventStream s = b.finish();
    assertArrayEquals(new float[] {10, 40}, values(s.nodeFeatures()));
  }

  @Test
  void aNodeWithoutAFeatureRowIsAnError() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.nodeFeatures(new HeapFeatureMatrix(new float[] {0, 10}, 2, 1));
    b.add(1, 0, 2, 1.0);
    DataFormatException e = assertThrows(DataFormatException.class, b::finish);
    assertEquals(
        "t.csv: node id 2 has no node feature row; the node features have rows 0..1",
        e.getMessage());
  }

  @Test
  void offsetDestinationsShiftsOnlyDestinations() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(1, 0, 0, 1.0);
    b.add(2, 1, 0, 2.0);
    b.offsetDestinations(2);
    EventStream s = b.finish();
    assertArrayEquals(new long[] {0, 1, 2}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {2, 2}, s.destinations());
  }

  @Test
  void widelySpreadIdsUseTheSearchPathWithTheSameResult() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(1, Long.MAX_VALUE - 1, 0, 1.0);
    b.add(2, 1L << 40, Long.MAX_VALUE - 1, 2.0);
    EventStream s = b.finish();
    assertArrayEquals(new long[] {0, 1L << 40, Long.MAX_VALUE - 1}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {2, 1}, s.sources());
    assertArrayEquals(new int[] {0, 2}, s.destinations());
  }

  @Test
  void noEventsAndNoFeaturesMeanAnEmptyFeatureMatrix() {
    EventTableBuilder b = builder(LoadOptions.defaults());
    b.add(1, 0, 1, 0.0);
    EventStream s = b.finish();
    assertEquals(0, s.edgeFeatures().dim());
    assertNull(s.splitLabels());
    assertThrows(DataFormatException.class, builder(LoadOptions.defaults())::finish);
  }
}
