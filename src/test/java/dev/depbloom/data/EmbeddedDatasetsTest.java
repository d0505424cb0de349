package dev.depbloom.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EmbeddedDatasetsTest {
  @Test
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
  void theCitationNamesTheJodiePaper() {
    assertTrue(
        EmbeddedDatasets.wikipediaCitation()
            .contains(
                "Srijan Kumar, Xikun Zhang, Jure Leskovec. Predicting Dynamic Embedding Trajectory"
                    + " in\nTemporal Interaction Networks. KDD 2019."));
  }
}
