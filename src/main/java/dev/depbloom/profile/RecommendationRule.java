package dev.depbloom.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The rule that turns measures into a {@link Recommendation} for {@code G} devices, {@code P * k =
 * G}:
 *
 * <ol>
 *   <li><b>Candidates</b>: every measured (window W, partitioner, P) with {@code P | G} and {@code
 *       k = G / P}, whose window holds at least two large batches per chain, two rounds ({@code W
 *       >= 2 G B}, {@link ProfileSettings#minimumWindow}; when no window is that large, every
 *       window is allowed) and whose balance (largest over mean chain) is at most {@link
 *       #MAX_BALANCE}.
 *   <li><b>Score</b>: the share of events at risk: events with a read older than {@code
 *       sequential}'s at batch {@code B}, counted on the candidate's own batches ({@link
 *       BatchedReads}) under the profile's read rule and <em>without</em> refinement. That counts
 *       in one measure what partitioning loses (writes buffered in other chains until the window's
 *       end), what a chain's batches lose (a batch of {@code B} chain events spans about {@code P
 *       B} events of the stream) and what a large batch of {@code k B} loses to its earlier
 *       micro-batches. Refinement recovers the last kind, at the price of refinement work on the
 *       critical path and a detached gradient, so those events count too; the reason states what
 *       refinement leaves.
 *   <li><b>Choice</b>: the lowest score; ties go to fewer chains (more micro-batches: refinement
 *       recovers their staleness and needs no window-end merge), then the larger window (fewer
 *       merges), then {@code contiguous} (cheaper to compute).
 * </ol>
 *
 * With one chain the score is the staleness of one large batch of {@code G B}, DistTGL's at {@code
 * i = G}; more chains trade it for partitioning's losses and their batches' spread. Counted this
 * way contiguous chains over long windows beat topology chains on every stream measured here
 * (topology chains' batches repeat their nodes), which the event-level count ({@link
 * LostDependencies}, the profile's "lost" columns) hides: it sees every write as visible to the
 * next event of its chain.
 */
final class RecommendationRule {
  /** Largest accepted balance: a window takes at most 10% longer than with equal chains. */
  static final double MAX_BALANCE = 1.10;

  private RecommendationRule() {}

  /** A candidate and its score. */
  private record Scored(PartitionMeasure measure, int microBatches, double score, double refined) {}

  static Recommendation choose(ProfileSettings settings, List<PartitionMeasure> partitions) {
    boolean anyWindowLargeEnough =
        partitions.stream().anyMatch(m -> m.window() >= settings.minimumWindow());
    List<Scored> candidates = new ArrayList<>();
    for (PartitionMeasure m : partitions) {
      boolean windowOk = !anyWindowLargeEnough || m.window() >= settings.minimumWindow();
      if (settings.devices() % m.chains() != 0 || !windowOk || m.balance() > MAX_BALANCE) {
        continue;
      }
      int k = settings.devices() / m.chains();
      if (m.microBatches() != k) {
        throw new IllegalArgumentException(
            "measure of P=" + m.chains() + " counted k=" + m.microBatches() + ", expected " + k);
      }
      candidates.add(
          new Scored(
              m,
              k,
              m.batched().of(settings.readRule()).lostEventShare(),
              m.refined().of(settings.readRule()).lostEventShare()));
    }
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException(
          "no candidate to recommend: every partition measure is unbalanced or has a chain count"
              + " that does not divide "
              + settings.devices()
              + " devices");
    }
    candidates.sort(ORDER);
    Scored best = candidates.get(0);
    PartitionMeasure m = best.measure();
    return new Recommendation(
        m.window(),
        m.partitioner(),
        m.chains(),
        best.microBatches(),
        reason(
            settings, best, runnerUp(candidates, best), candidates.size(), anyWindowLargeEnough));
  }

  private static final Comparator<Scored> ORDER =
      Comparator.comparingDouble(Scored::score)
          .thenComparingInt(s -> s.measure().chains())
          .thenComparing(s -> -s.measure().window())
          .thenComparing(s -> s.measure().partitioner().equals("contiguous") ? 0 : 1);

  /** The best candidate with another chain count, or null. */
  private static Scored runnerUp(List<Scored> sorted, Scored best) {
    return sorted.stream()
        .filter(s -> s.measure().chains() != best.measure().chains())
        .findFirst()
        .orElse(null);
  }

  private static String reason(
      ProfileSettings settings, Scored best, Scored next, int candidates, boolean windowRule) {
    String window =
        windowRule
            ? String.format(Locale.ROOT, "windows >= 2*G*B = %,d", settings.minimumWindow())
            : "any window (none holds 2*G*B events)";
    String head =
        String.format(
            Locale.ROOT,
            "%s has the fewest events at risk, %s (events reading older memory than sequential"
                + " at batch B under %s reads, without refinement%s), among %d candidates"
                + " with balance <= %.2f and %s",
            describe(best),
            percent(best.score()),
            settings.readRule().label(),
            best.microBatches() > 1 ? "; " + percent(best.refined()) + " with it" : "",
            candidates,
            MAX_BALANCE,
            window);
    if (next == null) {
      return head + ".";
    }
    return head
        + String.format(
            Locale.ROOT, "; next best %s at %s.", describe(next), percent(next.score()));
  }

  private static String describe(Scored s) {
    PartitionMeasure m = s.measure();
    return String.format(
        Locale.ROOT,
        "P=%d x k=%d (%s, windows of %,d)",
        m.chains(),
        s.microBatches(),
        m.chains() == 1 ? "one chain" : m.partitioner(),
        m.window());
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * share);
  }
}
