package dev.depbloom.schedule.sequential;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * TGL's training on one logical device: every round is one batch of {@code B} consecutive training
 * events; memory starts over at each epoch. The accuracy reference of every other schedule.
 */
public final class SequentialSchedule implements Schedule {
  private final int trainEvents;
  private final int batchSize;

  public SequentialSchedule(int trainEvents, int batchSize) {
    this.trainEvents = trainEvents;
    this.batchSize = batchSize;
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
    List<int[]> bounds = BatchPlan.bounds(0, trainEvents, batchSize);
    List<RoundPlan> rounds = new ArrayList<>(bounds.size());
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
    return "sequential(B=" + batchSize + ")";
  }
}
