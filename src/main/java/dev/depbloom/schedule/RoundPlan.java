package dev.depbloom.schedule;

import java.util.List;

/**
 * One round of a schedule: the work items of the devices that have work (in device order; a device
 * without an item contributes a zero gradient), the memory views that start over (memory reset)
 * before the round reads them, and the groups of views merged after the round's commit (the end of
 * a DepBloom temporal window: per node the latest write wins, in every view of the group; with
 * memory groups each group's windows end at their own rounds).
 */
public record RoundPlan(
    int index, List<ItemPlan> items, List<Integer> resetViews, List<List<Integer>> merges) {
  /** A round that merges nothing. */
  public RoundPlan(int index, List<ItemPlan> items, List<Integer> resetViews) {
    this(index, items, resetViews, List.of());
  }

  public RoundPlan {
    items = List.copyOf(items);
    resetViews = List.copyOf(resetViews);
    merges = merges.stream().map(List::copyOf).toList();
    for (int i = 1; i < items.size(); i++) {
      if (items.get(i).device() <= items.get(i - 1).device()) {
        throw new IllegalArgumentException("round " + index + ": items not in device order");
      }
    }
  }

  /** Whether any views merge after this round. */
  public boolean mergeViews() {
    return !merges.isEmpty();
  }

  /** Events of all items: the denominator of every item's gradient weight. */
  public int events() {
    int n = 0;
    for (ItemPlan i : items) {
      n += i.size();
    }
    return n;
  }
}
