package dev.depbloom.cli;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.store.EventStoreWriter;
import dev.depbloom.data.synthetic.ProgressListener;
import dev.depbloom.data.synthetic.SyntheticGraph;
import dev.depbloom.data.synthetic.SyntheticGraphConfig;
import dev.depbloom.data.synthetic.SyntheticGraphGenerator;
import dev.depbloom.data.synthetic.SyntheticGraphPreset;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code depbloom generate}: a synthetic graph, written as a binary event store. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Generates a synthetic continuous-time dynamic graph and writes it as a binary event store.",
      "Node activity follows Zipf's law, nodes form communities (most events stay inside one),"
          + " nodes act in bursty sessions that often return to recent partners, and new nodes"
          + " keep arriving until every node has appeared (given at least as many events as"
          + " nodes). Times are exponential gaps of mean 1. The same options and seed give"
          + " byte-identical output.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  depbloom generate --preset wiki-talk --seed 1 data/wiki-talk-synthetic",
      "  depbloom generate --preset wikipedia-size data/wikipedia-synthetic",
      "  depbloom generate --nodes 100000 --events 2000000 --communities 50 \\",
      "      --cross-community-share 0.05 data/synthetic-2m"
    })
final class GenerateCommand implements Callable<Integer> {
  private static final int LARGE_RUN_EVENTS = 1_000_000;

  @Parameters(paramLabel = "OUT", description = "Event store directory to write.")
  Path out;

  @Option(
      names = "--preset",
      paramLabel = "NAME",
      converter = PresetConverter.class,
      completionCandidates = PresetNames.class,
      description = {
        "Start from a public data set's size: ${COMPLETION-CANDIDATES}.",
        "wiki-talk: 1,140,149 nodes, 7,833,140 events; wikipedia-size: 8,227 users + 1,000"
            + " items, 157,474 events, 172-dim edge features. Options given explicitly win."
      })
  SyntheticGraphPreset preset;

  @Option(names = "--nodes", paramLabel = "N", description = "Node count (default: 10000).")
  Integer nodes;

  @Option(names = "--events", paramLabel = "E", description = "Event count (default: 100000).")
  Integer events;

  @Option(
      names = "--communities",
      paramLabel = "C",
      description = "Communities nodes are spread over (default: one per 1000 nodes).")
  Integer communities;

  @Option(
      names = "--cross-community-share",
      paramLabel = "X",
      description = "Share of new partners drawn from another community (default: 0.1).")
  Double crossCommunityShare;

  @Option(
      names = "--bipartite",
      negatable = true,
      description = "Users interact only with items, as in JODIE's data sets.")
  Boolean bipartite;

  @Option(
      names = "--items",
      paramLabel = "K",
      description = "Items of a bipartite graph, the last K node ids (default: N / 10).")
  Integer items;

  @Option(
      names = "--edge-feature-dim",
      paramLabel = "W",
      description = "Width of random edge features, uniform in [-1, 1) (default: 0, none).")
  Integer edgeFeatureDim;

  @Option(
      names = "--activity-exponent",
      paramLabel = "S",
      description = "Zipf exponent of node activity; 0 makes it uniform (default: 1.0).")
  Double activityExponent;

  @Option(
      names = "--repeat-share",
      paramLabel = "P",
      description = "Probability that an event returns to a recent partner (default: 0.3).")
  Double repeatShare;

  @Option(
      names = "--session-length",
      paramLabel = "L",
      description = "Mean events per session; 1 turns bursts off (default: 8).")
  Double sessionLength;

  @Option(
      names = "--concurrent-sessions",
      paramLabel = "COUNT",
      description = "Sessions open at once; a session's events are about K apart (default: 256).")
  Integer concurrentSessions;

  @Option(names = "--seed", paramLabel = "SEED", description = "Random seed (default: 0).")
  long seed;

  @Option(names = "--force", description = "Replace OUT if it is an existing event store.")
  boolean force;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    SyntheticGraphConfig config = config();
    EventStoreWriter.checkTarget(out.toAbsolutePath().normalize(), force);
    PrintWriter err = spec.commandLine().getErr();
    boolean large = config.events() >= LARGE_RUN_EVENTS;
    ProgressListener progress = large ? printingTo(err) : ProgressListener.NONE;
    long start = System.nanoTime();
    SyntheticGraph graph = SyntheticGraphGenerator.generate(config, progress);
    long generated = System.nanoTime();
    if (large) {
      err.println("  writing " + out);
    }
    EventStoreWriter.write(graph.events(), out, force);
    long written = System.nanoTime();
    EventStream events = graph.events();
    spec.commandLine()
        .getOut()
        .printf(
            "wrote %s: %,d events, %,d nodes (%,d with events), %,d %s;"
                + " generated in %.1f s, written in %.1f s%n",
            out,
            events.eventCount(),
            events.nodeCount(),
            activeNodes(events),
            config.communities(),
            config.communities() == 1 ? "community" : "communities",
            (generated - start) / 1e9,
            (written - generated) / 1e9);
    return 0;
  }

  /** The preset (or the defaults), overridden by every option given. */
  SyntheticGraphConfig config() {
    SyntheticGraphConfig base =
        preset != null
            ? preset.config(seed)
            : SyntheticGraphConfig.of(
                SyntheticGraphConfig.DEFAULT_NODES, SyntheticGraphConfig.DEFAULT_EVENTS, seed);
    int n = nodes != null ? nodes : base.nodes();
    boolean isBipartite = bipartite != null ? bipartite : base.bipartite();
    int itemCount;
    if (items != null) {
      itemCount = items;
    } else if (!isBipartite) {
      itemCount = 0;
    } else {
      itemCount =
          base.bipartite() && nodes == null ? base.items() : SyntheticGraphConfig.defaultItems(n);
    }
    return new SyntheticGraphConfig(
        n,
        events != null ? events : base.events(),
        communities != null
            ? communities
            : nodes != null ? SyntheticGraphConfig.defaultCommunities(n) : base.communities(),
        crossCommunityShare != null ? crossCommunityShare : base.crossCommunityShare(),
        isBipartite,
        itemCount,
        edgeFeatureDim != null ? edgeFeatureDim : base.edgeFeatureDim(),
        seed,
        activityExponent != null ? activityExponent : base.activityExponent(),
        repeatShare != null ? repeatShare : base.repeatShare(),
        sessionLength != null ? sessionLength : base.meanSessionLength(),
        concurrentSessions != null ? concurrentSessions : base.concurrentSessions());
  }

  private static ProgressListener printingTo(PrintWriter err) {
    return (stage, done, total) -> {
      if (total <= 1) {
        err.printf("  %s done%n", stage);
      } else {
        err.printf("  %s %,d / %,d (%d%%)%n", stage, done, total, done * 100 / total);
      }
      err.flush();
    };
  }

  private static int activeNodes(EventStream events) {
    boolean[] active = new boolean[events.nodeCount()];
    for (int v : events.sources()) {
      active[v] = true;
    }
    for (int v : events.destinations()) {
      active[v] = true;
    }
    int count = 0;
    for (boolean a : active) {
      count += a ? 1 : 0;
    }
    return count;
  }

  static final class PresetConverter implements CommandLine.ITypeConverter<SyntheticGraphPreset> {
    @Override
    public SyntheticGraphPreset convert(String value) {
      try {
        return SyntheticGraphPreset.byName(value);
      } catch (RuntimeException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  static final class PresetNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(SyntheticGraphPreset.values())
          .map(SyntheticGraphPreset::cliName)
          .iterator();
    }
  }
}
