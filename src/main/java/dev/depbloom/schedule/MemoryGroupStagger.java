package dev.depbloom.schedule;

import java.util.List;

/**
 * Where memory groups begin their walks over an epoch (DistTGL's memory parallelism, Zhou et al.,
 * VLDB 2024; amazon-science/disttgl {@code train.py}): of {@code k} groups, group {@code g} starts
 * at unit {@code floor(g * n / k)} of the epoch's {@code n} units and wraps around. DistTGL's units
 * are chunks of batches ({@code schedule.disttgl.DistTglSchedule}); a DepBloom schedule in memory
 * groups walks rounds and may start only where its windows start ({@code
 * schedule.depbloom.MemoryGroupsSchedule}).
 */
public final class MemoryGroupStagger {
  private final int groups;

  public MemoryGroupStagger(int groups) {
    if (groups < 1) {
      throw new IllegalArgumentException("memory groups need k >= 1: " + groups);
    }
    this.groups = groups;
  }

  /** The unit of {@code units} where group {@code group} begins: {@code floor(g * n / k)}. */
  public int start(int group, int units) {
    return (int) ((long) group * units / groups);
  }

  /**
   * Where group {@code group} begins when only {@code allowed} (ascending) may start a walk: the
   * one nearest to {@link #start}, the earlier of two as near (0 unless one is nearer).
   */
  public int nearest(int group, int units, List<Integer> allowed) {
    int target = start(group, units);
    int start = 0;
    for (int s : allowed) {
      if (Math.abs(s - target) < Math.abs(start - target)) {
        start = s;
      }
    }
    return start;
  }
}
