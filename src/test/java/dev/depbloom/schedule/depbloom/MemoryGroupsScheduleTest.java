package dev.depbloom.schedule.depbloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.partition.TopologyPartitioner;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.schedule.ScheduleRuns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** DepBloom in memory groups (one per machine): plans, placement and equality with DistTGL. */
@Tag(Kernels.TRAINS)
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

  /**
   * A group starts at the walk start nearest its share of the epoch: windows of 300 events of 1,000
   * (batches of 50) are 6 rounds each but the last, 2, so round 10 of 20 is nearer the window at
   * round 12 than the one at 6 (the rule before, the last start at or before, chose 6).
   */
  @Test
  void aGroupStartsAtTheWindowNearestItsShareOfTheEpoch() {
    EventStream events = TinyStreams.random(40, 1200, 3, 11);
    DepBloomSchedule inner =
        new DepBloomSchedule(
            events,
            1000,
            50,
            300,
            1,
            1,
            new dev.depbloom.partition.ContiguousPartitioner(),
            false,
            false);
    assertEquals(List.of(0, 6, 12, 18), inner.walkStarts(1));
    assertEquals(12, new MemoryGroupsSchedule(inner, 2).startRound(1, 1));
  }

  /**
   * The profile's window for memory groups makes a multiple of M windows an epoch, whole rounds
   * each, so that no two groups start at the same window: Wikipedia's 110,232 training events in
   * the profile's windows of 39,600 (3 windows) gave groups 0 and 1 of 4 the same walk.
   */
  @Test
  void theProfilesWindowForMemoryGroupsGivesEveryGroupItsOwnStart() {
    assertEquals(27_600, MemoryGroupsSchedule.groupWindow(39_600, 110_232, 4, 1_200));
    assertEquals(28_800, MemoryGroupsSchedule.groupWindow(40_800, 110_232, 2, 2_400));
    assertEquals(
        40_000, MemoryGroupsSchedule.groupWindow(40_000, 80_000, 2, 1_200), "already even");
    EventStream events = TinyStreams.random(400, 12_000, 3, 11);
    int train = 11_000;
    for (int groups : new int[] {2, 4}) {
      for (int window : new int[] {4_000, 3_900, 5_000, 10_800, 5_450}) {
        int w = MemoryGroupsSchedule.groupWindow(window, train, groups, 200);
        DepBloomSchedule inner =
            new DepBloomSchedule(
                events,
                train,
                100,
                w,
                2,
                1,
                new dev.depbloom.partition.ContiguousPartitioner(),
                false,
                false);
        MemoryGroupsSchedule s = new MemoryGroupsSchedule(inner, groups);
        java.util.Set<Integer> starts = new java.util.HashSet<>();
        for (int g = 0; g < groups; g++) {
          starts.add(s.startRound(g, 1));
        }
        assertEquals(groups, starts.size(), "M " + groups + ", W " + window + " -> " + w);
        if (window == 3_900 && groups == 4) {
          // for comparison: the window as the profile gave it leaves two groups on one start
          MemoryGroupsSchedule before =
              new MemoryGroupsSchedule(
                  new DepBloomSchedule(
                      events,
                      train,
                      100,
                      window,
                      2,
                      1,
                      new dev.depbloom.partition.ContiguousPartitioner(),
                      false,
                      false),
                  groups);
          java.util.Set<Integer> old = new java.util.HashSet<>();
          for (int g = 0; g < groups; g++) {
            old.add(before.startRound(g, 1));
          }
          assertTrue(old.size() < groups, "the test would prove nothing: " + old);
        }
      }
    }
  }

  /**
   * A window the user sets that gives two memory groups the same start is refused with an error
   * naming the keys, and the window it suggests gives every group its own start (before, the run
   * went ahead and two groups trained the same events from the same memory). 3,900 of 11,000 events
   * are 3 windows for 4 groups; 10,800 are 2 for 2 groups, the second of one round (200 events),
   * whose start, round 54 of 55, is as far from group 1's share (round 27) as round 0.
   */
  @ParameterizedTest
  @CsvSource({"4, 3900, 3", "2, 10800, 2"})
  void aUsersWindowThatGivesTwoGroupsOneStartIsRefusedWithAWindowThatWorks(
      int groups, int window, int windows) {
    EventStream events = TinyStreams.random(400, 12_000, 3, 11);
    Split split = new Split(11_000, 11_500, 12_000);
    InputException e =
        assertThrows(
            InputException.class,
            () ->
                ScheduleFamilies.build(
                    DepBloomConfig.of(
                        groups, window, PartitionerKind.CONTIGUOUS, 2, 1, false, false, true),
                    events,
                    split,
                    100));
    String m = e.getMessage();
    assertTrue(m.startsWith("schedule.window: " + window + " events"), m);
    assertTrue(m.contains("into " + windows + " windows,"), m);
    assertTrue(m.contains("schedule.memory_parallelism " + groups), m);
    Matcher w = Pattern.compile("set schedule.window to (\\d+)").matcher(m);
    assertTrue(w.find(), m);
    Schedule ok =
        ScheduleFamilies.build(
            DepBloomConfig.of(
                groups,
                Integer.parseInt(w.group(1)),
                PartitionerKind.CONTIGUOUS,
                2,
                1,
                false,
                false,
                true),
            events,
            split,
            100);
    assertNull(((MemoryGroupsSchedule) ok).sharedStart(1));
    assertEquals(2 * groups, ok.devices());
  }

  /**
   * The window the profile resolves for memory groups gives every group its own start on short
   * streams too. Rounding the window up to whole rounds can make a last window a stub again: 1,200
   * training events, 4 groups of 2 chains in batches of 100 (rounds of 200 events), the even window
   * of 300 became 400, three windows for four groups, and groups 0 and 1 both started at round 0;
   * the run then failed with an error about a {@code schedule.window} nobody had set.
   */
  @ParameterizedTest
  @CsvSource({"1200, 4", "1000, 4", "20000, 4", "2500, 2", "11000, 4"})
  void theWindowTheProfileResolvesGivesEveryGroupItsOwnStart(int train, int groups) {
    EventStream events = TinyStreams.random(400, train + 1_000, 3, 11);
    Split split = new Split(train, train + 500, train + 1_000);
    ScheduleConfig unresolved =
        DepBloomConfig.of(groups, 0, PartitionerKind.CONTIGUOUS, 2, 1, false, false, true);
    ScheduleConfig resolved = ScheduleFamilies.resolve(unresolved, events, split, 100).config();
    Schedule s = ScheduleFamilies.build(resolved, events, split, 100);
    assertNull(((MemoryGroupsSchedule) s).sharedStart(1), resolved.toString());
  }

  /**
   * Fewer rounds than memory groups: no window starts them apart, and the error says what to do.
   */
  @Test
  void memoryGroupsThatNoWindowCanStartApartAreRefusedNamingTheRounds() {
    EventStream events = TinyStreams.random(400, 1_300, 3, 11);
    Split split = new Split(300, 800, 1_300);
    ScheduleConfig unresolved =
        DepBloomConfig.of(4, 0, PartitionerKind.CONTIGUOUS, 2, 1, false, false, true);
    InputException e =
        assertThrows(
            InputException.class, () -> ScheduleFamilies.resolve(unresolved, events, split, 100));
    assertEquals(
        "schedule.memory_parallelism: the 300 training events make 2 rounds of 200 events (P x k"
            + " x B = 2 x 1 x 100), too few for 4 memory groups to start at rounds of their own;"
            + " use fewer memory groups or smaller batches (train.batch_size)",
        e.getMessage());
  }
}
