package dev.depbloom.profile;

import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.synthetic.ProgressListener;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.partition.TopologyPartitioner;
import dev.depbloom.sampling.TemporalCsr;
import java.util.ArrayList;
import java.util.List;

/**
 * The dependency profile of a stream before training (docs/profile.md): over a range of events (the
 * training split), per candidate window, partitioner and chain count {@code P | G}, the cross-chain
 * share, lost dependencies and balance ({@link PartitionMeasure}); per micro-batch count {@code k |
 * G}, the intra-batch staleness at {@code k B} ({@link IntraBatchStaleness}) and the hot/cold share
 * of written rows for batches of {@code k B} ({@link HotColdRows}); and from them a {@link
 * Recommendation} by the explicit rule of {@code RecommendationRule}.
 *
 * <p>Everything here depends only on the stream, so a schedule can call {@link #recommend} before
 * it trains. Negatives for the hot/cold measure come from a {@link NegativeSampler} seeded with
 * {@link #NEGATIVE_SEED}.
 *
 * @param from first event profiled
 * @param to end of the events profiled (exclusive)
 * @param settings devices, batch size, candidate windows, read rule
 * @param partitions one measure per window, partitioner and chain count
 * @param staleness one measure per micro-batch count k, ascending
 * @param hotCold per k: roots, roots with negatives, recent neighbors, recent neighbors with
 *     negatives; empty when only the recommendation was asked for
 * @param recommendation the chosen window, partitioner, P and k
 */
public record DependencyProfile(
    int from,
    int to,
    ProfileSettings settings,
    List<PartitionMeasure> partitions,
    List<IntraBatchStaleness> staleness,
    List<HotColdRows> hotCold,
    Recommendation recommendation) {
  /** Seed of the negatives of the hot/cold measure. */
  public static final long NEGATIVE_SEED = 0;

  /** The partitioners every profile compares. */
  public static List<Partitioner> partitioners() {
    return List.of(new ContiguousPartitioner(), new TopologyPartitioner());
  }

  public DependencyProfile {
    partitions = List.copyOf(partitions);
    staleness = List.copyOf(staleness);
    hotCold = List.copyOf(hotCold);
  }

  /**
   * The recommended {@code depbloom(W, P, k, B)} for the training events of {@code split} on {@code
   * devices} devices, default candidate windows, reads judged under {@link ReadRule#OWN_WRITES},
   * the rule the schedule implements (docs/profile.md, "Recommendation rule"). The entry point of
   * the schedule.
   */
  public static Recommendation recommend(
      EventStream events, Split split, int devices, int batchSize) {
    return recommend(events, split, ProfileSettings.of(devices, batchSize));
  }

  /** The recommendation for the training events of {@code split} under other settings. */
  public static Recommendation recommend(
      EventStream events, Split split, ProfileSettings settings) {
    return measure(events, 0, split.trainEnd(), settings, false, ProgressListener.NONE)
        .recommendation();
  }

  /** The full profile of the training events of {@code split}. */
  public static DependencyProfile of(
      EventStream events, Split split, ProfileSettings settings, ProgressListener progress) {
    return measure(events, 0, split.trainEnd(), settings, true, progress);
  }

  /**
   * Profiles events {@code [from, to)}; {@code withHotCold} false skips the hot/cold measure, which
   * the recommendation does not use.
   */
  public static DependencyProfile measure(
      EventStream events,
      int from,
      int to,
      ProfileSettings settings,
      boolean withHotCold,
      ProgressListener progress) {
    if (from < 0 || to > events.eventCount() || from >= to) {
      throw new IllegalArgumentException(
          "profile range [" + from + ", " + to + ") is empty or outside 0.." + events.eventCount());
    }
    List<PartitionMeasure> partitions = partitions(events, from, to, settings, progress);
    List<IntraBatchStaleness> staleness = new ArrayList<>();
    for (int p : settings.chainCounts()) {
      int k = settings.devices() / p;
      staleness.add(0, IntraBatchStaleness.measure(events, from, to, settings.batchSize(), k));
    }
    List<HotColdRows> hotCold =
        withHotCold ? hotCold(events, from, to, settings, progress) : List.of();
    Recommendation r = RecommendationRule.choose(settings, partitions);
    return new DependencyProfile(from, to, settings, partitions, staleness, hotCold, r);
  }

  private static List<PartitionMeasure> partitions(
      EventStream events, int from, int to, ProfileSettings s, ProgressListener progress) {
    List<PartitionMeasure> out = new ArrayList<>();
    int total = s.windows().size() * partitioners().size() * s.chainCounts().length;
    for (int window : s.windows()) {
      for (Partitioner partitioner : partitioners()) {
        for (int p : s.chainCounts()) {
          out.add(
              PartitionMeasure.measure(
                  events, from, to, window, partitioner, p, s.batchSize(), s.devices() / p));
          progress.progress("partitions", out.size(), total);
        }
      }
    }
    return out;
  }

  private static List<HotColdRows> hotCold(
      EventStream events, int from, int to, ProfileSettings s, ProgressListener progress) {
    TemporalCsr csr = TemporalCsr.build(events, true);
    NegativeSampler negatives =
        NegativeSampler.forStream(events, events.bipartite(), NEGATIVE_SEED);
    int[] chainCounts = s.chainCounts();
    List<HotColdRows> out = new ArrayList<>();
    for (int i = chainCounts.length - 1; i >= 0; i--) {
      int batch = s.batchSize() * (s.devices() / chainCounts[i]);
      for (ReadStyle style : ReadStyle.values()) {
        out.add(HotColdRows.measure(events, csr, from, to, batch, style, null));
        out.add(HotColdRows.measure(events, csr, from, to, batch, style, negatives));
      }
      progress.progress("hot/cold rows", chainCounts.length - i, chainCounts.length);
    }
    return out;
  }

  /** The measure of one window, partitioner and chain count, or null when not measured. */
  public PartitionMeasure partition(int window, String partitioner, int chains) {
    for (PartitionMeasure m : partitions) {
      if (m.window() == window && m.partitioner().equals(partitioner) && m.chains() == chains) {
        return m;
      }
    }
    return null;
  }

  /** The hot/cold measure of one batch size and read style, or null when not measured. */
  public HotColdRows hotCold(int batchSize, ReadStyle style, boolean withNegatives) {
    for (HotColdRows h : hotCold) {
      if (h.batchSize() == batchSize
          && h.readStyle() == style
          && h.withNegatives() == withNegatives) {
        return h;
      }
    }
    return null;
  }
}
