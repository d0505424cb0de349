package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recommendation rule on hand-made measures: G = 4 devices, B = 100 (so windows need 800
 * events, two rounds), 1,000 events. A measure's score is its batched count without refinement
 * (events reading older memory than sequential at batch B); P = 1 scores 5% (one large batch of 4
 * B), what refinement leaves is a tenth of the score.
 */
class RecommendationRuleTest {
  private static ProfileSettings settings(ReadRule rule) {
    return new ProfileSettings(4, 100, List.of(200, 1000, 2000), rule);
  }

  /** A measure over 1,000 events with {@code stale} batched events under both rules. */
  private static PartitionMeasure measure(
      int window, String partitioner, int chains, int stale, double balance) {
    return measure(window, partitioner, chains, stale, stale, balance);
  }

  private static PartitionMeasure measure(
      int window, String partitioner, int chains, int ownedStale, int ownStale, double balance) {
    long largest = Math.round(balance * 1000 / chains);
    // the event-level counts are set to something else: the rule must not read them
    LostDependencies eventLevel = new LostDependencies(1000, 999, 2000, 999);
    return new PartitionMeasure(
        window,
        partitioner,
        chains,
        1,
        1000,
        0,
        largest,
        eventLevel,
        eventLevel,
        4 / chains,
        new PartitionMeasure.ByRule(lost(ownedStale), lost(ownStale)),
        new PartitionMeasure.ByRule(lost(ownedStale / 10), lost(ownStale / 10)),
        MergeTies.NONE);
  }

  private static LostDependencies lost(int events) {
    return new LostDependencies(1000, events, 2000, events);
  }

  /** P = 1 in both partitioners at two windows, nothing lost. */
  private static List<PartitionMeasure> oneChain() {
    List<PartitionMeasure> out = new ArrayList<>();
    for (int w : new int[] {1000, 2000}) {
      out.add(measure(w, "contiguous", 1, 50, 1));
      out.add(measure(w, "topology", 1, 50, 1));
    }
    return out;
  }

  private static Recommendation choose(List<PartitionMeasure> extra) {
    List<PartitionMeasure> all = new ArrayList<>(oneChain());
    all.addAll(extra);
    return RecommendationRule.choose(settings(ReadRule.OWNED_ROWS), all);
  }

  @Test
  void oneChainWinsWhenPartitionsLoseMoreThanOneLargeBatch() {
    // P=1: 5%; P=2: 10%; P=4: 20%.
    Recommendation r =
        choose(List.of(measure(1000, "topology", 2, 100, 1), measure(1000, "topology", 4, 200, 1)));
    assertEquals(1, r.chains());
    assertEquals(4, r.microBatches());
  }

  @Test
  void moreChainsWinWhenThePartitionKeepsTheDependencies() {
    // P=4: 1% beats P=1: 5% and P=2: 2%.
    Recommendation r =
        choose(List.of(measure(1000, "topology", 2, 20, 1), measure(1000, "topology", 4, 10, 1)));
    assertEquals(new Recommendation(1000, "topology", 4, 1, r.reason()), r);
  }

  @Test
  void unbalancedCandidatesAreLeftOut() {
    // P=4 would score 1% but takes 20% longer than balanced; P=2 scores 4%.
    Recommendation r =
        choose(
            List.of(measure(1000, "topology", 2, 40, 1.05), measure(1000, "topology", 4, 10, 1.2)));
    assertEquals(2, r.chains());
    assertEquals(2, r.microBatches());
  }

  /**
   * Windows of less than two rounds are left out: 200 events hold less than one large batch per
   * chain, 400 = G * B exactly one (its chains would merge every round).
   */
  @ParameterizedTest
  @ValueSource(ints = {200, 400})
  void windowsOfLessThanTwoRoundsAreLeftOut(int window) {
    Recommendation r =
        choose(List.of(measure(window, "topology", 4, 1, 1), measure(1000, "topology", 4, 10, 1)));
    assertEquals(1000, r.window());
    assertEquals(4, r.chains());
  }

  @Test
  void anyWindowIsAllowedWhenNoneHoldsALargeBatchPerChain() {
    List<PartitionMeasure> small =
        List.of(measure(200, "contiguous", 1, 50, 1), measure(200, "topology", 4, 10, 1));
    Recommendation r = RecommendationRule.choose(settings(ReadRule.OWNED_ROWS), small);
    assertEquals(new Recommendation(200, "topology", 4, 1, r.reason()), r);
    assertTrue(r.reason().contains("any window"), r.reason());
  }

  @Test
  void tiesGoToFewerChainsThenTheLargerWindowThenContiguous() {
    // P=2: 5% ties with P=1: 5%.
    Recommendation r = choose(List.of(measure(1000, "topology", 2, 50, 1)));
    assertEquals(new Recommendation(2000, "contiguous", 1, 4, r.reason()), r);
  }

  @Test
  void theReadRuleDecidesWhichBatchedCountsJudge() {
    List<PartitionMeasure> all = new ArrayList<>(oneChain());
    all.add(measure(1000, "contiguous", 4, 300, 10, 1));
    assertEquals(1, RecommendationRule.choose(settings(ReadRule.OWNED_ROWS), all).chains());
    assertEquals(4, RecommendationRule.choose(settings(ReadRule.OWN_WRITES), all).chains());
  }

  @Test
  void theReasonGivesTheScoreItsPartsAndTheRunnerUp() {
    Recommendation r = choose(List.of(measure(1000, "topology", 2, 130, 1)));
    assertEquals(
        "P=1 x k=4 (one chain, windows of 2,000) has the fewest events at risk, 5.0% (events"
            + " reading older memory than sequential at batch B under owned-rows reads, without"
            + " refinement; 0.5% with it), among 5 candidates with balance <= 1.10 and windows >="
            + " 2*G*B = 800; next best P=2 x k=2 (topology, windows of 1,000) at 13.0%.",
        r.reason());
  }

  @Test
  void withoutAnyAcceptableCandidateItSaysWhy() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RecommendationRule.choose(
                    settings(ReadRule.OWNED_ROWS), List.of(measure(1000, "topology", 4, 0, 2.0))));
    assertTrue(e.getMessage().contains("no candidate"), e.getMessage());
  }
}
