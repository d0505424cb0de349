package dev.depbloom.data.synthetic;

import dev.depbloom.data.InputException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Named sizes of public data sets, so benchmarks can run at their scale without the data. */
public enum SyntheticGraphPreset {
  /** SNAP wiki-talk-temporal's size: 1,140,149 nodes, 7,833,140 events, unipartite, no features. */
  WIKI_TALK("wiki-talk", 1_140_149, 7_833_140, false, 0, 0),
  /**
   * JODIE Wikipedia's size: 8,227 users + 1,000 items, 157,474 events, 172-dim edge features (the
   * published width; here random).
   */
  WIKIPEDIA_SIZE("wikipedia-size", 9_227, 157_474, true, 1_000, 172);

  private final String cliName;
  private final int nodes;
  private final int events;
  private final boolean bipartite;
  private final int items;
  private final int edgeFeatureDim;

  SyntheticGraphPreset(
      String cliName, int nodes, int events, boolean bipartite, int items, int edgeFeatureDim) {
    this.cliName = cliName;
    this.nodes = nodes;
    this.events = events;
    this.bipartite = bipartite;
    this.items = items;
    this.edgeFeatureDim = edgeFeatureDim;
  }

  /** The name on the command line, e.g. {@code wiki-talk}. */
  public String cliName() {
    return cliName;
  }

  /** The preset's graph with the default skew, burstiness and community structure. */
  public SyntheticGraphConfig config(long seed) {
    SyntheticGraphConfig base = SyntheticGraphConfig.of(nodes, events, seed);
    return new SyntheticGraphConfig(
        nodes,
        events,
        base.communities(),
        base.crossCommunityShare(),
        bipartite,
        items,
        edgeFeatureDim,
        seed,
        base.activityExponent(),
        base.repeatShare(),
        base.meanSessionLength(),
        base.concurrentSessions());
  }

  /** The preset called {@code name} on the command line. */
  public static SyntheticGraphPreset byName(String name) {
    for (SyntheticGraphPreset p : values()) {
      if (p.cliName.equals(name)) {
        return p;
      }
    }
    throw new InputException(
        "unknown preset '"
            + name
            + "', expected one of "
            + Arrays.stream(values())
                .map(SyntheticGraphPreset::cliName)
                .collect(Collectors.joining(", ")));
  }
}
