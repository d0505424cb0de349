package dev.depbloom.schedule.depbloom;

import dev.depbloom.data.EventStream;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.schedule.RoundPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DepBloom's temporally bounded spatial partitioning (docs/schedules.md, "Temporally bounded
 * spatial partitioning"; Zhao et al., arXiv 2610.15730): the training events are cut into serial
 * temporal windows of {@code W} events, and a {@link Partitioner} assigns each event of a window to
 * one of {@code P} sub-chains (every node has one owner chain per window). Memories are reconciled
 * only at window boundaries; the quality of a cut is judged by its lost dependencies ({@code
 * profile.LostDependencies}).
 */
final class TemporalWindows {
  private TemporalWindows() {}

  /**
   * One window: its first event and its events per chain, in stream order (a chain of a short last
   * window may be empty).
   */
  record Window(int from, int[][] chainEvents) {
    /**
     * The window-start prefill of chains that are consecutive slices starting at {@link #from}
     * (empty chains take no part), or none when only one chain has events.
     *
     * @throws IllegalArgumentException when a chain is not a consecutive slice of the window
     */
    List<RoundPlan.Prefill> prefill() {
      List<Integer> views = new ArrayList<>();
      List<Integer> starts = new ArrayList<>();
      int next = from;
      for (int p = 0; p < chainEvents.length; p++) {
        int[] c = chainEvents[p];
        if (c.length == 0) {
          continue;
        }
        if (c[0] != next || c[c.length - 1] != c[0] + c.length - 1) {
          throw new IllegalArgumentException(
              "prefill needs chains that are consecutive slices of the window (the contiguous"
                  + " partitioner): chain "
                  + p
                  + " of the window at event "
                  + from
                  + " is not");
        }
        views.add(p);
        starts.add(c[0]);
        next = c[0] + c.length;
      }
      return views.size() < 2 ? List.of() : List.of(new RoundPlan.Prefill(views, starts));
    }
  }

  /** Events {@code [0, trainEvents)} in windows of {@code window}, each cut into {@code chains}. */
  static List<Window> of(
      EventStream events, int trainEvents, int window, int chains, Partitioner partitioner) {
    List<Window> out = new ArrayList<>();
    for (int from = 0; from < trainEvents; from += window) {
      int to = Math.min(trainEvents, from + window);
      out.add(new Window(from, chainEvents(events, from, to, chains, partitioner)));
    }
    return out;
  }

  /** The events of window {@code [from, to)} per chain, in stream order. */
  private static int[][] chainEvents(
      EventStream events, int from, int to, int chains, Partitioner partitioner) {
    int[][] out = new int[chains][];
    if (chains == 1) {
      out[0] = new int[to - from];
      Arrays.setAll(out[0], i -> from + i);
      return out;
    }
    return partitioner.partition(events, from, to, chains).chainEvents();
  }
}
