package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.TopologyPartitioner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DepBloom in memory groups (one per machine): plans, placement and equality with DistTGL. */
class MemoryGroupsScheduleTest {
  /**
   * Memory groups of one-chain DepBloom with one batch per window are DistTGL's memory groups with
   * one batch per round: same staggered starts, resets on wrap, memory carried across epochs.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan"})
  void groupsOfOneChainAreDistTglsMemoryGroups(String model) {
    ScheduleRuns.State disttgl =
        ScheduleRuns.train(
            ScheduleRuns.run(
                model,
                Map.of(
                    "schedule.name", "disttgl",
                    "schedule.devices", "3",
                    "schedule.memory_parallelism", "3"),
                1),
            2);
    Map<String, String> d = new HashMap<>();
    d.put("schedule.name", "depbloom");
    d.put("schedule.devices", "3");
    d.put("schedule.memory_parallelism", "3");
    d.put("schedule.window", "61"); // the batch size of ScheduleRuns: one round per window
    d.put("schedule.partitioner", "contiguous");
    d.put("schedule.chains", "1");
    d.put("schedule.micro_batches", "1");
    d.put("schedule.critical_path", "false");
    ScheduleRuns.State groups = ScheduleRuns.train(ScheduleRuns.run(model, d, 2), 2);
    assertEquals(disttgl.losses(), groups.losses());
    assertArrayEquals(disttgl.parameters(), groups.parameters());
    assertArrayEquals(disttgl.memory(), groups.memory());
    assertArrayEquals(disttgl.memoryTimes(), groups.memoryTimes());
  }

  @Test
  void groupsStartAtWindowsWalkEverythingAndMergeOnlyTheirOwnViews() {
    EventStream events = TinyStreams.random(40, 1200, 3, 11);
    DepBloomSchedule inner =
        new DepBloomSchedule(events, 1000, 50, 200, 2, 1, new TopologyPartitioner(), false, false);
    MemoryGroupsSchedule s = new MemoryGroupsSchedule(inner, 2);
    assertEquals(4, s.devices());
    assertEquals(4, s.memoryViews());
    List<RoundPlan> in = inner.plan(1);
    List<RoundPlan> out = s.plan(1);
    assertEquals(in.size(), out.size());
    int start1 = s.startRound(1, 1);
    assertTrue(inner.walkStarts(1).contains(start1), "group 1 starts at a window");
    assertTrue(start1 > 0 && start1 <= in.size() / 2, "staggered: " + start1);
    int[] seen = new int[1000];
    for (RoundPlan r : out) {
      for (ItemPlan i : r.items()) {
        int group = i.device() / 2;
        assertEquals(group, i.view() / 2, "a group's devices read its own views");
        for (int e : i.events()) {
          seen[e]++;
        }
      }
      for (List<Integer> m : r.merges()) {
        assertEquals(2, m.size());
        assertEquals(m.get(0) / 2, m.get(1) / 2, "a merge stays within one group: " + m);
      }
      // group 1 resets exactly where it wraps to the inner plan's first round
      boolean wraps = (r.index() + start1) % in.size() == 0;
      assertEquals(wraps, r.resetViews().containsAll(List.of(2, 3)), "round " + r.index());
    }
    for (int e = 0; e < 1000; e++) {
      assertEquals(2, seen[e], "event " + e + " trained once per group");
    }
    // group 0 is the inner plan itself
    for (int r = 0; r < in.size(); r++) {
      List<ItemPlan> g0 = new ArrayList<>();
      for (ItemPlan i : out.get(r).items()) {
        if (i.device() < 2) {
          g0.add(i);
        }
      }
      assertEquals(in.get(r).items().size(), g0.size());
      for (int i = 0; i < g0.size(); i++) {
        assertArrayEquals(in.get(r).items().get(i).events(), g0.get(i).events());
      }
    }
  }

  @Test
  void ranksHoldWholeGroupsOrShareThemAsTheInnerScheduleWould() {
    EventStream events = TinyStreams.random(40, 1200, 3, 11);
    DepBloomSchedule inner =
        new DepBloomSchedule(events, 1000, 50, 200, 2, 2, new ContiguousPartitioner(), true, false);
    MemoryGroupsSchedule s = new MemoryGroupsSchedule(inner, 2); // 8 devices, 2 x (2 chains x 2)
    // 2 ranks: one group (machine) each
    assertEquals(List.of(0, 0, 0, 0, 1, 1, 1, 1), ranks(s, 2));
    // 4 ranks: two per group, a chain's micro-batches on one rank
    assertEquals(List.of(0, 0, 1, 1, 2, 2, 3, 3), ranks(s, 4));
    s.checkWorldSize(1);
    s.checkWorldSize(2);
    s.checkWorldSize(4);
    InputException e = assertThrows(InputException.class, () -> s.checkWorldSize(3));
    assertTrue(e.getMessage().contains("memory_parallelism"), e.getMessage());
    assertThrows(InputException.class, () -> s.checkWorldSize(8)); // 4 ranks per group, 2 chains
  }

  private static List<Integer> ranks(Schedule s, int worldSize) {
    List<Integer> out = new ArrayList<>();
    for (int d = 0; d < s.devices(); d++) {
      out.add(s.rankOf(d, worldSize));
    }
    return out;
  }
}
