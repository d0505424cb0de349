package dev.depbloom.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where inside an epoch validation can check a schedule's progress: after a round that leaves the
 * validation view whole. The validation view's <em>family</em> is the view and every view merged
 * with it (a DepBloom memory group's sub-chains); a family of one view is whole after every round,
 * a larger one only after a round that merges it (a temporal window's end). The family walks the
 * stream in order (the validation view is memory group 0's, see {@code MemoryGroupsSchedule}), so
 * after a whole round it has seen every training event before its <em>position</em>: one past the
 * latest event any of its items held so far.
 */
public final class ValidationChecks {
  /** A check after round {@code round} (its index in the epoch's plan), at stream position. */
  public record Check(int round, int position) {}

  private ValidationChecks() {}

  /**
   * Up to {@code perEpoch - 1} checks before the epoch's end (which validation covers anyway): for
   * {@code c = 1 .. perEpoch - 1}, the first whole round whose position reaches {@code c /
   * perEpoch} of the {@code trainEvents}; rounds are never repeated and the last round is left out.
   */
  public static List<Check> plan(
      List<RoundPlan> rounds, int validationView, int perEpoch, int trainEvents) {
    if (perEpoch < 1) {
      throw new IllegalArgumentException("validations per epoch must be at least 1: " + perEpoch);
    }
    List<Check> whole = whole(rounds, validationView);
    List<Check> out = new ArrayList<>();
    int next = 0;
    for (int c = 1; c < perEpoch; c++) {
      long goal = ((long) c * trainEvents + perEpoch - 1) / perEpoch;
      while (next < whole.size() && whole.get(next).position() < goal) {
        next++;
      }
      if (next == whole.size()) {
        break;
      }
      Check k = whole.get(next++);
      if (k.position() < trainEvents) {
        out.add(k);
      }
    }
    return out;
  }

  /**
   * Checks at equal amounts of training (issue 34: rows that train different amounts per epoch,
   * like memory groups, are checked after the same training): after the first whole round at or
   * after every multiple of {@code every} trained events, counting from the run's start ({@code
   * trainedBefore} events were trained in earlier epochs); the epoch's last round is left out (its
   * end validates anyway).
   */
  public static List<Check> every(
      List<RoundPlan> rounds, int validationView, long every, long trainedBefore) {
    if (every < 1) {
      throw new IllegalArgumentException("a check interval must be at least 1 event: " + every);
    }
    Map<Integer, Check> wholeByRound = new HashMap<>();
    for (Check c : whole(rounds, validationView)) {
      wholeByRound.put(c.round(), c);
    }
    List<Check> out = new ArrayList<>();
    long trained = trainedBefore;
    long next = (trainedBefore / every + 1) * every;
    for (int r = 0; r + 1 < rounds.size(); r++) {
      trained += rounds.get(r).events();
      Check c = wholeByRound.get(r);
      if (trained >= next && c != null) {
        out.add(c);
        next = (trained / every + 1) * every;
      }
    }
    return out;
  }

  /** The rounds after which the validation view's family is whole, with its position there. */
  private static List<Check> whole(List<RoundPlan> rounds, int validationView) {
    Set<Integer> family = new TreeSet<>(Set.of(validationView));
    for (RoundPlan r : rounds) {
      for (List<Integer> group : r.merges()) {
        if (group.contains(validationView)) {
          family.addAll(group);
        }
      }
    }
    boolean merging = family.size() > 1;
    List<Check> whole = new ArrayList<>();
    int position = 0;
    for (int r = 0; r + 1 < rounds.size(); r++) {
      RoundPlan round = rounds.get(r);
      for (ItemPlan item : round.items()) {
        if (family.contains(item.view())) {
          position = Math.max(position, item.events()[item.size() - 1] + 1);
        }
      }
      boolean merged = round.merges().stream().anyMatch(g -> g.contains(validationView));
      if (!merging || merged) {
        whole.add(new Check(r, position));
      }
    }
    return whole;
  }
}
