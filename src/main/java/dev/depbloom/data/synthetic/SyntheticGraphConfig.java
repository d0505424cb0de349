package dev.depbloom.data.synthetic;

import dev.depbloom.data.InputException;

/**
 * What {@link SyntheticGraphGenerator} makes: sizes, community structure, skew and burstiness. The
 * record's text form is the provenance a generated stream carries as its ingest source.
 *
 * @param nodes node count {@code N}; in bipartite mode users {@code 0..N-items-1}, then items
 * @param events event count {@code E}
 * @param communities nodes are assigned to this many communities uniformly at random
 * @param crossCommunityShare share of newly chosen partners drawn from another community; as
 *     returns to recent partners inherit it, it is also about the share of cross-community events
 *     (measured within 0.01 on small graphs; 0.112 for 0.1 at wiki-talk size, where hubs gather
 *     cross-community partners and return to them)
 * @param bipartite users interact with items only (JODIE's user-item graphs)
 * @param items item count in bipartite mode, 0 otherwise
 * @param edgeFeatureDim width of the random edge features, 0 for none
 * @param seed the run seed every random stream is split from
 * @param activityExponent Zipf exponent {@code s}: the node of activity rank {@code r} (from 1) has
 *     weight {@code r^-s}, so the top 1% of nodes hold about {@code H_s(N/100) / H_s(N)} of the
 *     activity; 0 gives uniform activity
 * @param repeatShare probability that an event goes to one of its source's last 4 partners
 * @param meanSessionLength mean events of a session (geometric), in which one node acts in bursts
 * @param concurrentSessions sessions open at once; a session's events are about this many events
 *     apart in the stream
 */
public record SyntheticGraphConfig(
    int nodes,
    int events,
    int communities,
    double crossCommunityShare,
    boolean bipartite,
    int items,
    int edgeFeatureDim,
    long seed,
    double activityExponent,
    double repeatShare,
    double meanSessionLength,
    int concurrentSessions) {

  public static final int DEFAULT_NODES = 10_000;
  public static final int DEFAULT_EVENTS = 100_000;
  public static final double DEFAULT_CROSS_COMMUNITY_SHARE = 0.1;
  public static final double DEFAULT_ACTIVITY_EXPONENT = 1.0;
  public static final double DEFAULT_REPEAT_SHARE = 0.3;
  public static final double DEFAULT_MEAN_SESSION_LENGTH = 8;
  public static final int DEFAULT_CONCURRENT_SESSIONS = 256;
  public static final long DEFAULT_SEED = 0;

  /** Arrays of Java are indexed by int; a heap feature matrix holds fewer values than this. */
  private static final long MAX_FEATURE_VALUES = Integer.MAX_VALUE - 8;

  public SyntheticGraphConfig {
    require(nodes >= 2, "nodes", "must be at least 2, got " + nodes);
    require(events >= 0, "events", "must not be negative, got " + events);
    require(
        communities >= 1 && communities <= nodes,
        "communities",
        "must be in 1.." + nodes + ", got " + communities);
    require(
        crossCommunityShare >= 0 && crossCommunityShare <= 1,
        "crossCommunityShare",
        "must be in [0, 1], got " + crossCommunityShare);
    if (bipartite) {
      require(
          items >= 1 && items < nodes, "items", "must be in 1.." + (nodes - 1) + ", got " + items);
    } else {
      require(items == 0, "items", "applies only to bipartite graphs, got " + items);
    }
    require(edgeFeatureDim >= 0, "edgeFeatureDim", "must not be negative, got " + edgeFeatureDim);
    require(
        (long) events * edgeFeatureDim <= MAX_FEATURE_VALUES,
        "edgeFeatureDim",
        "times events is "
            + (long) events * edgeFeatureDim
            + " values, more than the "
            + MAX_FEATURE_VALUES
            + " a heap feature matrix holds");
    require(
        activityExponent >= 0 && activityExponent <= 10,
        "activityExponent",
        "must be in [0, 10], got " + activityExponent);
    require(
        repeatShare >= 0 && repeatShare <= 1,
        "repeatShare",
        "must be in [0, 1], got " + repeatShare);
    require(
        meanSessionLength >= 1 && meanSessionLength <= 1e6,
        "meanSessionLength",
        "must be in [1, 1e6], got " + meanSessionLength);
    require(
        concurrentSessions >= 1 && concurrentSessions <= 1 << 20,
        "concurrentSessions",
        "must be in 1.." + (1 << 20) + ", got " + concurrentSessions);
  }

  /** A unipartite graph with the default skew, burstiness and community structure. */
  public static SyntheticGraphConfig of(int nodes, int events, long seed) {
    return new SyntheticGraphConfig(
        nodes,
        events,
        defaultCommunities(nodes),
        DEFAULT_CROSS_COMMUNITY_SHARE,
        false,
        0,
        0,
        seed,
        DEFAULT_ACTIVITY_EXPONENT,
        DEFAULT_REPEAT_SHARE,
        DEFAULT_MEAN_SESSION_LENGTH,
        DEFAULT_CONCURRENT_SESSIONS);
  }

  /** One community per thousand nodes, at least one. */
  public static int defaultCommunities(int nodes) {
    return Math.max(1, nodes / 1000);
  }

  /** One item per ten nodes, at least one (JODIE's Wikipedia has 1,000 items of 9,227 nodes). */
  public static int defaultItems(int nodes) {
    return Math.max(1, nodes / 10);
  }

  /** Users, the sources of a bipartite graph; all nodes otherwise. */
  public int sourceNodes() {
    return nodes - items;
  }

  private static void require(boolean ok, String field, String problem) {
    if (!ok) {
      throw new InputException("synthetic graph: " + field + " " + problem);
    }
  }
}
