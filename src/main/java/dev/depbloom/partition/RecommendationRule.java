package dev.depbloom.partition;

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
 *   <li><b>Score</b>: the share of events at risk, {@code lost + recoverable}: events with a lost
 *       dependency under the profile's read rule (gone for good), plus events stale only because of
 *       an earlier micro-batch of their large batch of {@code k B} (intra-batch refinement recovers
 *       them, at the price of refinement work on the critical path and a detached gradient, so they
 *       count too, once each). Events stale within their own micro-batch are the same for every
 *       candidate (they are the staleness of batch B) and do not count.
 *   <li><b>Choice</b>: the lowest score; ties go to fewer chains (more micro-batches: refinement
 *       recovers their staleness and needs no window-end merge), then the larger window (fewer
 *       merges), then {@code contiguous} (cheaper to compute).
 * </ol>
 *
 * With one chain nothing is lost and the score is the micro-batch staleness of {@code G B}; more
 * chains trade that for lost dependencies. So the rule picks more micro-batches when the stream
 * repeats few nodes across micro-batches or when partitioning loses many dependencies (e-mail,
 * social graphs), and more chains when a partition keeps the dependencies (Wikipedia).
 */
final class RecommendationRule {
  /** Largest accepted balance: a window takes at most 10% longer than with equal chains. */
  static final double MAX_BALANCE = 1.10;

  private RecommendationRule() {}

  /** A candidate and its score. */
  private record Scored(
      PartitionMeasure measure, int microBatches, double lost, double recoverable) {
    double score() {
      return lost + recoverable;
    }
  }

  static Recommendation choose(
      ProfileSettings settings,
      List<PartitionMeasure> partitions,
      List<IntraBatchStaleness> staleness) {
    boolean anyWindowLargeEnough =
        partitions.stream().anyMatch(m -> m.window() >= settings.minimumWindow());
    List<Scored> candidates = new ArrayList<>();
    for (PartitionMeasure m : partitions) {
      boolean windowOk = !anyWindowLargeEnough || m.window() >= settings.minimumWindow();
      if (settings.devices() % m.chains() != 0 || !windowOk || m.balance() > MAX_BALANCE) {
        continue;
      }
      int k = settings.devices() / m.chains();
      IntraBatchStaleness s = stalenessFor(staleness, k);
      double lost = m.lost(settings.readRule()).lostEventShare();
      candidates.add(new Scored(m, k, lost, s.recoverableShare()));
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

  private static IntraBatchStaleness stalenessFor(List<IntraBatchStaleness> staleness, int k) {
    return staleness.stream()
        .filter(s -> s.microBatches() == k)
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException("no staleness measure for " + k + " micro-batches"));
  }

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
            "%s has the fewest events at risk, %s (%s lost to partitioning under %s reads + %s"
                + " stale across micro-batches, for refinement to recover), among %d candidates"
                + " with balance <= %.2f and %s",
            describe(best),
            percent(best.score()),
            percent(best.lost()),
            settings.readRule().label(),
            percent(best.recoverable()),
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
