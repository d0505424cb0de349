package dev.depbloom.schedule.depbloom;

import dev.depbloom.data.InputException;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.schedule.CommitPolicy;
import dev.depbloom.schedule.EveryRoundExchange;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.MemoryGroupStagger;
import dev.depbloom.schedule.Refinement;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.WindowMemory;
import dev.depbloom.schedule.WriteExchange;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory parallelism between groups of devices, the schedule {@code inner} inside each
 * (docs/schedules.md, "Memory groups"; docs/distributed.md, "Across machines": the paper's
 * multi-node setting, one group per machine). {@code M} groups each keep their own copy of {@code
 * inner}'s memory views and walk all of {@code inner}'s rounds from a staggered start, as DistTGL's
 * memory groups walk the stream: group {@code g} begins at the walk start ({@link
 * Schedule#walkStarts}, a DepBloom window's first round) nearest to round {@code floor(g * R / M)}
 * of the {@code R}, wraps around, and its memory starts over when it comes back to round 0 (the
 * reset {@code inner} plans there). A group's memory carries from one epoch to the next; group 0
 * walks the stream in order, so its memory is what validation continues. Every event is thus
 * trained {@code M} times per epoch, once per group, and the gradients of all groups meet in one
 * optimizer step per round.
 *
 * <p>Group {@code g} holds devices {@code g * D .. g * D + D - 1} and views {@code g * V .. g * V +
 * V - 1} for {@code inner}'s {@code D} devices and {@code V} views; its windows merge only its own
 * views. With several processes, whole groups are spread over ranks: {@code W / M} ranks per group
 * when {@code M} divides the world size {@code W} (the inner schedule spread over them as it would
 * be alone), or whole groups per rank when {@code W} divides {@code M}.
 */
public final class MemoryGroupsSchedule implements Schedule {
  private final Schedule inner;
  private final int groups;
  private final MemoryGroupStagger stagger;

  public MemoryGroupsSchedule(Schedule inner, int groups) {
    if (groups < 2) {
      throw new IllegalArgumentException("memory groups need M >= 2: " + groups);
    }
    this.inner = inner;
    this.groups = groups;
    this.stagger = new MemoryGroupStagger(groups);
  }

  @Override
  public int devices() {
    return groups * inner.devices();
  }

  @Override
  public int memoryViews() {
    return groups * inner.memoryViews();
  }

  /**
   * The round of {@code inner}'s plan at which group {@code g} begins each epoch: the walk start
   * nearest to round {@code floor(g * R / M)}, the earlier of two as near. (Until 2026-12-02 the
   * last one at or before it: with a shorter last window that put a group a whole window early,
   * Wikipedia's two groups of 4 chains at rounds 0 and 12 of 46 instead of 0 and 24.)
   */
  int startRound(int group, int epoch) {
    return stagger.nearest(group, inner.plan(epoch).size(), inner.walkStarts(epoch));
  }

  /**
   * Two groups that begin epoch {@code epoch} at the same round, {@code {g, h, round}} with {@code
   * g < h}, or null when every group has a start of its own. Two such groups walk the same rounds
   * with the same memory: the same work twice, with nothing of the staggering memory groups are
   * for.
   */
  public int[] sharedStart(int epoch) {
    int[] start = new int[groups];
    for (int h = 0; h < groups; h++) {
      start[h] = startRound(h, epoch);
      for (int g = 0; g < h; g++) {
        if (start[g] == start[h]) {
          return new int[] {g, h, start[h]};
        }
      }
    }
    return null;
  }

  @Override
  public List<RoundPlan> plan(int epoch) {
    List<RoundPlan> in = inner.plan(epoch);
    int rounds = in.size();
    int d = inner.devices();
    int v = inner.memoryViews();
    int[] start = new int[groups];
    for (int g = 0; g < groups; g++) {
      start[g] = startRound(g, epoch);
    }
    List<RoundPlan> out = new ArrayList<>(rounds);
    for (int r = 0; r < rounds; r++) {
      List<ItemPlan> items = new ArrayList<>();
      List<Integer> resets = new ArrayList<>();
      List<List<Integer>> merges = new ArrayList<>();
      List<RoundPlan.Prefill> prefills = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        RoundPlan q = in.get((r + start[g]) % rounds);
        for (ItemPlan i : q.items()) {
          items.add(new ItemPlan(g * d + i.device(), g * v + i.view(), i.events(), i.microBatch()));
        }
        for (int view : q.resetViews()) {
          resets.add(g * v + view);
        }
        for (List<Integer> m : q.merges()) {
          int offset = g * v;
          merges.add(m.stream().map(x -> offset + x).toList());
        }
        for (RoundPlan.Prefill f : q.prefills()) {
          prefills.add(f.shifted(g * v));
        }
      }
      out.add(new RoundPlan(r, items, resets, merges, prefills));
    }
    return out;
  }

  @Override
  public Refinement refinement() {
    return inner.refinement();
  }

  @Override
  public CommitPolicy commitPolicy() {
    return inner.commitPolicy();
  }

  @Override
  public WindowMemory windowMemory() {
    return inner.windowMemory();
  }

  @Override
  public MemoryPlacement memoryPlacement() {
    return inner.memoryPlacement();
  }

  @Override
  public int rankOf(int device, int worldSize) {
    int g = device / inner.devices();
    if (worldSize % groups == 0) {
      int perGroup = worldSize / groups;
      return g * perGroup + inner.rankOf(device % inner.devices(), perGroup);
    }
    return g % worldSize;
  }

  /**
   * Memory crosses processes only at merges when {@code inner}'s does and its views merge at all; a
   * group without merges (one sub-chain) exchanges every round's writes, so that every process
   * holds every group's memory.
   */
  @Override
  public WriteExchange writeExchange() {
    WriteExchange own = inner.writeExchange();
    if (own.atMerges()) {
      for (RoundPlan r : inner.plan(1)) {
        if (r.mergeViews()) {
          return own;
        }
      }
    }
    return new EveryRoundExchange();
  }

  @Override
  public void checkWorldSize(int worldSize) {
    if (worldSize % groups == 0) {
      inner.checkWorldSize(worldSize / groups);
    } else if (groups % worldSize != 0) {
      throw new InputException(
          "WORLD_SIZE="
              + worldSize
              + ": "
              + describe()
              + " spreads its "
              + groups
              + " memory groups over the processes, so the process count must divide"
              + " schedule.memory_parallelism or be a multiple of it");
    }
  }

  @Override
  public String describe() {
    return groups + " memory groups x " + inner.describe();
  }

  /**
   * The profile's window for {@code groups} memory groups: memory groups start their walks at
   * window starts spread evenly over the epoch (this class), so the epoch needs a multiple of
   * {@code groups} windows, or two groups start at the same window and walk the same rounds with
   * the same memory (the profile's 39,600 events on Wikipedia are 3 windows: with 4 groups, groups
   * 0 and 1 trained the same events from the same memory, and both started over at every epoch's
   * start). The count of windows is rounded up to a multiple of {@code groups}, the window up to
   * whole rounds of {@code roundEvents} ({@code P * k * B}). A last window shorter than half the
   * others does not count: its start is as near the end of the epoch as the first window's, and
   * with {@code M} windows of which the last is such a stub (Wikipedia's 110,231 events in two
   * windows of 110,000 and 231) the nearest starts of groups 0 and 1 of 2 are both round 0; the
   * windows are then evened out instead.
   */
  public static int groupWindow(int window, int trainEvents, int groups, int roundEvents) {
    int windows = (trainEvents + window - 1) / window;
    int last = trainEvents - (windows - 1) * window;
    int even = (windows + groups - 1) / groups * groups;
    if (even == windows && 2L * last >= window) {
      return window;
    }
    int w = (trainEvents + even - 1) / even;
    return (w + roundEvents - 1) / roundEvents * roundEvents;
  }
}
