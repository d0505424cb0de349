package dev.depbloom.data.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFiles;
import dev.depbloom.data.EventStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class EmbeddedDatasetsTest {
  @Test
  @Tag("shared-data")
  void embeddedWikipediaIsTheSharedFileEventForEvent() {
    EventStream embedded = EmbeddedDatasets.wikipedia();
    EventStream shared =
        EventLoader.load(DataFiles.shared("wikipedia.csv.gz"), LoadOptions.defaults());
    assertEquals(157_474, embedded.eventCount());
    assertEquals(9_227, embedded.nodeCount());
    assertTrue(embedded.bipartite());
    assertArrayEquals(shared.sources(), embedded.sources());
    assertArrayEquals(shared.destinations(), embedded.destinations());
    assertArrayEquals(shared.times(), embedded.times());
    assertEquals("classpath:/dev/depbloom/data/wikipedia.csv.gz", embedded.ingest().source());
  }

  @Test
  void embeddedWikipediaBeginsWithTheRowsOfTheFileInTheirOrder() {
    EventStream embedded = EmbeddedDatasets.wikipedia();
    EventStream cut =
        EventLoader.load(DataFiles.fixture("cuts/wikipedia-head300.csv"), LoadOptions.defaults());
    assertEquals(300, cut.eventCount());
    for (int e = 0; e < cut.eventCount(); e++) {
      assertEquals(originalSource(cut, e), originalSource(embedded, e), "source of event " + e);
      assertEquals(
          originalDestination(cut, e), originalDestination(embedded, e), "destination " + e);
      assertEquals(cut.times()[e], embedded.times()[e], "time of event " + e);
    }
  }

  private static long originalSource(EventStream s, int event) {
    return s.nodeIds().originalId(s.sources()[event]);
  }

  private static long originalDestination(EventStream s, int event) {
    return s.nodeIds().originalId(s.destinations()[event]);
  }

  @Test
  void theCitationNamesTheJodiePaper() {
    assertTrue(
        EmbeddedDatasets.wikipediaCitation()
            .contains(
                "Srijan Kumar, Xikun Zhang, Jure Leskovec. Predicting Dynamic Embedding Trajectory"
                    + " in\nTemporal Interaction Networks. KDD 2019."));
  }
}
