package dev.depbloom.data.synthetic;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import dev.depbloom.data.RandomStreams;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Generates a continuous-time dynamic graph with the traits that matter to TGNN training systems:
 *
 * <ul>
 *   <li><b>Skewed degrees.</b> Node activity follows Zipf's law over a random ranking of the nodes;
 *       sources and new partners are drawn by activity through alias tables.
 *   <li><b>Communities.</b> Every node belongs to one community; a new partner comes from the
 *       source's own community, or with probability {@code crossCommunityShare} from another one
 *       (chosen by activity).
 *   <li><b>Temporal locality.</b> Events come from <i>sessions</i>: a node opens one, emits a
 *       geometric number of events, each about {@code concurrentSessions} events after the last,
 *       then goes quiet. With probability {@code repeatShare} an event returns to one of the
 *       source's last 4 partners (in a unipartite graph partners are remembered both ways, so
 *       replies happen).
 *   <li><b>Node arrivals.</b> Nodes not seen yet are introduced at an even rate over the stream
 *       (see {@link NodeArrivals}): a new node is contacted by a member of its community chosen by
 *       activity, or in a bipartite graph a new user makes its first event. With at least as many
 *       events as nodes (users), every node appears.
 * </ul>
 *
 * <p>Events are produced in time order (exponential gaps of mean 1), so nothing is sorted.
 * Everything is drawn from streams split from the seed; the event loop is sequential and the edge
 * features are filled in fixed blocks with one stream each, so the output is identical for any
 * number of threads.
 */
public final class SyntheticGraphGenerator {
  private static final int RECENT_PARTNERS = 4;
  private static final int SELF_LOOP_RETRIES = 8;
  private static final int OTHER_COMMUNITY_RETRIES = 16;
  private static final int FEATURE_BLOCK_ROWS = 1 << 16;
  private static final int PROGRESS_EVERY = 1 << 20;
  private static final int MAX_SESSION_LENGTH = 1 << 20;

  private final SyntheticGraphConfig config;
  private final ProgressListener progress;
  private final CommunityLayout layout;
  private final AliasTable sourceTable; // one segment over source nodes 0..S-1, by activity
  private final int[] recentPartners; // [S * RECENT_PARTNERS], ring per source node
  private final int[] recentWrites; // [S], partners remembered so far

  private SyntheticGraphGenerator(SyntheticGraphConfig config, ProgressListener progress) {
    this.config = config;
    this.progress = progress;
    double[] activity = activity(config);
    this.layout = CommunityLayout.of(config, activity);
    double[] sourceActivity = new double[config.sourceNodes()];
    System.arraycopy(activity, 0, sourceActivity, 0, sourceActivity.length);
    this.sourceTable = AliasTable.of(sourceActivity);
    this.recentPartners = new int[config.sourceNodes() * RECENT_PARTNERS];
    this.recentWrites = new int[config.sourceNodes()];
  }

  /** Generates the graph {@code config} describes. */
  public static SyntheticGraph generate(SyntheticGraphConfig config) {
    return generate(config, ProgressListener.NONE);
  }

  /** Generates the graph {@code config} describes, reporting progress per stage. */
  public static SyntheticGraph generate(SyntheticGraphConfig config, ProgressListener progress) {
    SyntheticGraphGenerator generator = new SyntheticGraphGenerator(config, progress);
    progress.progress("layout", 1, 1);
    return generator.run();
  }

  private SyntheticGraph run() {
    int e = config.events();
    int[] src = new int[e]; // [E]
    int[] dst = new int[e]; // [E]
    double[] time = new double[e]; // [E], non-decreasing
    emitEvents(src, dst, time);
    FeatureMatrix features = edgeFeatures(config, progress);
    EventStream events =
        new EventStream(
            src,
            dst,
            time,
            null,
            features,
            null,
            NodeIdMap.identity(config.nodes()),
            config.bipartite(),
            new IngestReport("synthetic:" + config, null, 0, 0));
    return new SyntheticGraph(events, layout.communities());
  }

  private void emitEvents(int[] src, int[] dst, double[] time) {
    SplittableRandom random =
        RandomStreams.stream(config.seed(), RandomStreams.key("synthetic.events"));
    int slots = config.concurrentSessions();
    int[] sessionNode = new int[slots];
    int[] sessionLeft = new int[slots];
    NodeArrivals arrivals = new NodeArrivals(config);
    double t = 0;
    for (int i = 0; i < src.length; i++) {
      t -= Math.log1p(-random.nextDouble());
      int u;
      int v;
      int newcomer = arrivals.arrivalAt(i);
      if (newcomer >= 0 && config.bipartite()) { // a new user's first event
        u = newcomer;
        v = destination(u, random);
      } else if (newcomer >= 0) { // a new node is contacted from its community
        v = newcomer;
        u = memberOtherThan(layout.communities()[v], v, random);
      } else {
        int slot = random.nextInt(slots);
        if (sessionLeft[slot] == 0) {
          sessionNode[slot] = sourceTable.sample(0, random);
          sessionLeft[slot] = sessionLength(random);
        }
        sessionLeft[slot]--;
        u = sessionNode[slot];
        v = destination(u, random);
      }
      arrivals.see(u);
      arrivals.see(v);
      src[i] = u;
      dst[i] = v;
      time[i] = t;
      remember(u, v);
      if (!config.bipartite()) {
        remember(v, u);
      }
      if ((i + 1) % PROGRESS_EVERY == 0) {
        progress.progress("events", i + 1, src.length);
      }
    }
    progress.progress("events", src.length, src.length);
  }

  private int sessionLength(SplittableRandom random) {
    double mean = config.meanSessionLength();
    if (mean <= 1) {
      return 1;
    }
    double extra = Math.floor(Math.log1p(-random.nextDouble()) / Math.log1p(-1 / mean));
    return 1 + (int) Math.min(extra, MAX_SESSION_LENGTH);
  }

  /** A recent partner of {@code u}, or a new one from its community or (rarely) another. */
  private int destination(int u, SplittableRandom random) {
    if (config.repeatShare() > 0 && random.nextDouble() < config.repeatShare()) {
      int seen = Math.min(recentWrites[u], RECENT_PARTNERS);
      if (seen > 0) {
        return recentPartners[u * RECENT_PARTNERS + random.nextInt(seen)];
      }
    }
    int own = layout.communities()[u];
    int target = own;
    if (config.communities() > 1 && random.nextDouble() < config.crossCommunityShare()) {
      target = otherCommunity(own, random);
    }
    if (layout.size(target) == 0) { // a bipartite community without items
      target = otherCommunity(own, random);
    }
    return memberOtherThan(target, u, random);
  }

  /** A community other than {@code own} that has destinations, by activity; {@code own} if none. */
  private int otherCommunity(int own, SplittableRandom random) {
    for (int tries = 0; tries < OTHER_COMMUNITY_RETRIES; tries++) {
      int c = layout.sampleCommunity(random);
      if (c != own) {
        return c;
      }
    }
    return layout.uniformNonEmptyCommunityOtherThan(own, random);
  }

  /** A destination in community {@code c}, by activity, that is not {@code u}. */
  private int memberOtherThan(int c, int u, SplittableRandom random) {
    for (int tries = 0; tries < SELF_LOOP_RETRIES; tries++) {
      int v = layout.sampleMember(c, random);
      if (v != u) {
        return v;
      }
    }
    // u dominates its community's activity (a hub): take a uniform member instead.
    if (layout.size(c) < 2) {
      return memberOtherThan(otherCommunity(c, random), u, random);
    }
    int v;
    do {
      v = layout.uniformMember(c, random);
    } while (v == u);
    return v;
  }

  private void remember(int u, int partner) {
    recentPartners[u * RECENT_PARTNERS + recentWrites[u] % RECENT_PARTNERS] = partner;
    recentWrites[u]++;
  }

  /**
   * Zipf weights {@code rank^-s} over a random ranking, ranked separately for sources and, in a
   * bipartite graph, items.
   */
  private static double[] activity(SyntheticGraphConfig config) {
    SplittableRandom random =
        RandomStreams.stream(config.seed(), RandomStreams.key("synthetic.activity"));
    double[] weights = new double[config.nodes()]; // [N]
    zipfOverRandomRanks(weights, 0, config.sourceNodes(), config.activityExponent(), random);
    zipfOverRandomRanks(
        weights, config.sourceNodes(), config.nodes(), config.activityExponent(), random);
    return weights;
  }

  private static void zipfOverRandomRanks(
      double[] weights, int from, int to, double exponent, SplittableRandom random) {
    int n = to - from;
    int[] order = IntStream.range(from, to).toArray();
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    for (int rank = 0; rank < n; rank++) {
      weights[order[rank]] = Math.pow(rank + 1, -exponent);
    }
  }

  /** Uniform features in [-1, 1), a fixed block of rows per random stream. */
  private static FeatureMatrix edgeFeatures(
      SyntheticGraphConfig config, ProgressListener progress) {
    int rows = config.events();
    int dim = config.edgeFeatureDim();
    if (dim == 0) {
      return FeatureMatrix.empty(rows);
    }
    float[] values = new float[rows * dim]; // [E * dim]
    int blocks = (rows + FEATURE_BLOCK_ROWS - 1) / FEATURE_BLOCK_ROWS;
    long key = RandomStreams.key("synthetic.edge-features");
    IntStream.range(0, blocks)
        .parallel()
        .forEach(
            b -> {
              SplittableRandom random = RandomStreams.stream(config.seed(), key, b);
              int from = b * FEATURE_BLOCK_ROWS * dim;
              int to = (int) Math.min((long) (b + 1) * FEATURE_BLOCK_ROWS * dim, values.length);
              for (int i = from; i < to; i++) {
                values[i] = (random.nextInt() >> 8) * 0x1p-23f;
              }
            });
    progress.progress("edge features", rows, rows);
    return new HeapFeatureMatrix(values, rows, dim);
  }
}
