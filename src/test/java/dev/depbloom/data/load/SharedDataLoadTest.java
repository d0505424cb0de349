package dev.depbloom.data.load;

import static dev.depbloom.data.DataFiles.shared;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every file of the shared real data loads with the counts its README gives. Tagged {@code
 * shared-data}: the build runs it when {@code ../shared/data} exists (the folder comes from the
 * system property {@code depbloom.sharedData}; a missing file then fails the test).
 */
@Tag("shared-data")
class SharedDataLoadTest {
  private static EventStream load(String name) {
    return EventLoader.load(shared(name), LoadOptions.defaults());
  }

  @Test
  void wikipediaHas157474EventsBetween9227NodesAndIsBipartite() {
    EventStream s = load("wikipedia.csv.gz");
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertEquals(157_474, s.eventCount());
    assertEquals(9_227, s.nodeCount());
    assertTrue(s.bipartite());
    assertEquals(0, s.edgeFeatures().dim());
    assertEquals(0.0, s.times()[0]);
    assertEquals(2_678_373.0, s.times()[s.eventCount() - 1]);
    assertEquals(0, s.ingest().outOfOrder());
    assertTrue(s.nodeIds().isIdentity());
  }

  @Test
  void emailEuCoreHasTwoBackwardStepsAndIsSortedStably() {
    EventStream s = load("email-Eu-core-temporal.txt.gz");
    assertEquals(DataFormat.SNAP, s.ingest().format());
    assertEquals(332_334, s.eventCount());
    assertEquals(986, s.nodeCount());
    assertEquals(2, s.ingest().outOfOrder());
    assertEquals(294_004, s.ingest().rowsMoved()); // counted independently with Python's sorted()
    assertFalse(s.bipartite());
    assertEquals(69_459_254.0, s.times()[s.eventCount() - 1]);
  }

  @Test
  void collegeMsgHas59835EventsBetween1899Nodes() {
    EventStream s = load("CollegeMsg.txt.gz");
    assertEquals(DataFormat.SNAP, s.ingest().format());
    assertEquals(59_835, s.eventCount());
    assertEquals(1_899, s.nodeCount());
    assertEquals(0, s.ingest().outOfOrder());
    assertEquals(1_082_040_961.0, s.times()[0]);
  }

  @Test
  void bitcoinOtcHas35592EventsBetween5881NodesWithTheRatingAsFeature() {
    EventStream s = load("soc-sign-bitcoinotc.csv.gz");
    assertEquals(DataFormat.SNAP_SIGNED, s.ingest().format());
    assertEquals(35_592, s.eventCount());
    assertEquals(5_881, s.nodeCount());
    assertEquals(1, s.edgeFeatures().dim());
    float[] first = new float[1];
    s.edgeFeatures().copyRow(0, first, 0);
    assertEquals(4f, first[0]); // first row: 6,2,4,1289241912
  }

  @Test
  void usLegisHas60396EventsBetween225NodesWithTheCountW() {
    EventStream s = load("USLegis.csv.gz");
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertEquals(60_396, s.eventCount());
    assertEquals(225, s.nodeCount());
    assertFalse(s.bipartite());
    assertEquals(1, s.edgeFeatures().dim());
    float[] first = new float[1];
    s.edgeFeatures().copyRow(0, first, 0);
    assertEquals(53f, first[0]); // first row: 150,91,0,0,53
    assertEquals(11.0, s.times()[s.eventCount() - 1]);
  }

  @Test
  void lastfmHead40Has39EventsAfterItsHeaderWithItemsOffsetAfterUsers() {
    // The README's "40" counts the lines of `head -40`, header included.
    EventStream s = load("lastfm_head40.csv");
    assertEquals(DataFormat.JODIE, s.ingest().format());
    assertEquals(39, s.eventCount());
    assertEquals(45, s.nodeCount()); // users 0..10, items 0..33 offset to 11..44
    assertTrue(s.bipartite());
    assertEquals(2, s.edgeFeatures().dim());
  }
}
