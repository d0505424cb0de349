package dev.depbloom.schedule;

import java.util.List;

/**
 * One round of a schedule: the work items of the devices that have work (in device order; a device
 * without an item contributes a zero gradient), the memory views that start over (memory reset)
 * before the round reads them, and the groups of views merged after the round's commit (the end of
 * a DepBloom temporal window: per node the latest write wins, in every view of the group; with
 * memory groups each group's windows end at their own rounds), and the prefills run before the
 * round's items (a DepBloom window's start, see {@link Prefill}).
 */
public record RoundPlan(
    int index,
    List<ItemPlan> items,
    List<Integer> resetViews,
    List<List<Integer>> merges,
    List<Prefill> prefills) {
  /** A round that merges nothing. */
  public RoundPlan(int index, List<ItemPlan> items, List<Integer> resetViews) {
    this(index, items, resetViews, List.of(), List.of());
  }

  /** A round without prefills. */
  public RoundPlan(
      int index, List<ItemPlan> items, List<Integer> resetViews, List<List<Integer>> merges) {
    this(index, items, resetViews, merges, List.of());
  }

  /**
   * Window-start prefill of contiguous sub-chains ({@code schedule.prefill}): before a window's
   * first round, view {@code views[p]} (p &gt; 0) is brought to the memory a sequential walk would
   * hold at its chain's first event, by replaying, without gradient and with the parameters of the
   * moment, the window's events {@code [starts[0], starts[p])} in batches of B: view {@code
   * views[p]} takes the rows view {@code views[p-1]} replayed so far and replays {@code
   * [starts[p-1], starts[p])} itself. The chains' starts ascend; every chain's events are the
   * consecutive range up to the next chain's start.
   */
  public record Prefill(List<Integer> views, List<Integer> starts) {
    public Prefill {
      views = List.copyOf(views);
      starts = List.copyOf(starts);
      if (views.size() != starts.size() || views.size() < 2) {
        throw new IllegalArgumentException("a prefill needs two or more views, one start each");
      }
      for (int p = 1; p < starts.size(); p++) {
        if (starts.get(p) <= starts.get(p - 1)) {
          throw new IllegalArgumentException("prefill starts do not ascend: " + starts);
        }
      }
    }

    /** The same prefill over views shifted by {@code offset} (a memory group's). */
    public Prefill shifted(int offset) {
      return new Prefill(views.stream().map(v -> v + offset).toList(), starts);
    }
  }

  public RoundPlan {
    items = List.copyOf(items);
    resetViews = List.copyOf(resetViews);
    merges = merges.stream().map(List::copyOf).toList();
    prefills = List.copyOf(prefills);
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
