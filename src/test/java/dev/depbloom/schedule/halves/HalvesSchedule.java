package dev.depbloom.schedule.halves;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import java.util.ArrayList;
import java.util.List;

/** One device, one memory view, rounds of {@code round} consecutive training events. */
final class HalvesSchedule implements Schedule {
  private final int trainEvents;
  private final int round;

  HalvesSchedule(int trainEvents, int round) {
    this.trainEvents = trainEvents;
    this.round = round;
  }

  @Override
  public int devices() {
    return 1;
  }

  @Override
  public int memoryViews() {
    return 1;
  }

  @Override
  public List<RoundPlan> plan(int epoch) {
    List<int[]> bounds = BatchPlan.bounds(0, trainEvents, round);
    List<RoundPlan> rounds = new ArrayList<>();
    for (int r = 0; r < bounds.size(); r++) {
      int[] b = bounds.get(r);
      rounds.add(
          new RoundPlan(
              r, List.of(ItemPlan.range(0, 0, b[0], b[1])), r == 0 ? List.of(0) : List.of()));
    }
    return rounds;
  }

  @Override
  public String describe() {
    return "halves(round=" + round + ")";
  }
}
