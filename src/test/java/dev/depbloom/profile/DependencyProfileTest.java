package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.DataFiles;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.data.synthetic.ProgressListener;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.TopologyPartitioner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class DependencyProfileTest {
  private static final EventStream EVENTS = TinyStreams.random(40, 2000, 0, 17);

  @Test
  void measuresEveryWindowPartitionerAndChainCountOfTheDevices() {
    ProfileSettings s = new ProfileSettings(4, 50, List.of(300, 700), ReadRule.OWNED_ROWS);
    List<String> stages = new ArrayList<>();
    DependencyProfile p =
        DependencyProfile.of(
            EVENTS, Split.of(EVENTS), s, (stage, done, total) -> stages.add(stage + " " + done));
    assertEquals(0, p.from());
    assertEquals(1400, p.to());
    assertEquals(2 * 2 * 3, p.partitions().size());
    for (PartitionMeasure m : p.partitions()) {
      assertEquals(1400, m.events());
      assertEquals(m.chains() == 1, m.crossChainEvents() == 0, m.toString());
      assertEquals(m.chains() == 1, m.ownedRows().lostEvents() == 0, m.toString());
    }
    assertEquals(List.of(1, 2, 4), p.staleness().stream().map(x -> x.microBatches()).toList());
    assertEquals(3 * 4, p.hotCold().size());
    assertEquals(
        List.of(50, 50, 50, 50),
        p.hotCold().subList(0, 4).stream().map(h -> h.batchSize()).toList());
    assertEquals(200, p.hotCold().get(8).batchSize());
    assertEquals(4, p.recommendation().chains() * p.recommendation().microBatches());
    assertTrue(stages.contains("partitions 12"), stages.toString());
    assertNotNull(p.partition(700, "topology", 2));
    assertEquals(null, p.partition(700, "topology", 3));
    HotColdRows h = p.hotCold(200, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, true);
    assertEquals(List.of(200, true), List.of(h.batchSize(), h.withNegatives()));
    assertEquals(null, p.hotCold(300, ReadStyle.ROOTS, false));
  }

  @Test
  void recommendIsTheFullProfilesRecommendationWithTheDefaults() {
    Split split = Split.of(EVENTS);
    Recommendation quick = DependencyProfile.recommend(EVENTS, split, 4, 50);
    DependencyProfile full =
        DependencyProfile.of(EVENTS, split, ProfileSettings.of(4, 50), ProgressListener.NONE);
    assertEquals(full.recommendation(), quick);
  }

  /**
   * docs/architecture.md, "The dependency profile", on the shared Wikipedia stream: topology cuts
   * about 4% of the events at windows of 12,000 and 4 chains; 79% of the events are stale at batch
   * 600, 88% at 2,400.
   */
  @Test
  @Tag("shared-data")
  void wikipediaReproducesTheDesignFigures() {
    EventStream wiki =
        EventLoader.load(DataFiles.shared("wikipedia.csv.gz"), LoadOptions.defaults());
    Split split = Split.of(wiki);
    PartitionMeasure topology =
        PartitionMeasure.measure(
            wiki, 0, split.trainEnd(), 12_000, new TopologyPartitioner(), 4, 600, 1);
    assertEquals(0.04, topology.crossChainShare(), 0.01);
    PartitionMeasure contiguous =
        PartitionMeasure.measure(
            wiki, 0, split.trainEnd(), 12_000, new ContiguousPartitioner(), 4, 600, 1);
    assertTrue(contiguous.crossChainShare() > 0.2, contiguous.toString());
    assertEquals(
        0.786, IntraBatchStaleness.measure(wiki, 0, split.trainEnd(), 600, 1).staleShare(), 0.005);
    assertEquals(
        0.881, IntraBatchStaleness.measure(wiki, 0, split.trainEnd(), 600, 4).staleShare(), 0.005);
  }
}
