package dev.depbloom.schedule.disttgl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.LastWinsCommit;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.schedule.ScheduleRuns;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** DistTGL's rounds on a tiny stream: chunks, staggered group starts, resets on wrap. */
@Tag(Kernels.TRAINS)
class DistTglScheduleTest {
  /** Compact form of a round: "device:view:start-end ..." then "| reset views". */
  private static String describe(RoundPlan r) {
    StringBuilder b = new StringBuilder();
    for (ItemPlan i : r.items()) {
      b.append(i.device()).append(':').append(i.view()).append(':');
      b.append(i.start()).append('-').append(i.start() + i.size());
      b.append(i.copy() > 0 ? "~" + i.copy() + " " : " ");
    }
    return b.append("| ").append(r.resetViews()).toString();
  }

  private static List<String> describe(List<RoundPlan> rounds) {
    List<String> out = new ArrayList<>();
    for (RoundPlan r : rounds) {
      out.add(describe(r));
    }
    return out;
  }

  @Test
  void groupsStartStaggeredAndResetWhenTheyWrap() {
    // 9 batches of 2 events; i = 2 gives chunks {0,1} {2,3} {4,5} {6,7} {8}: R = 5;
    // group 1 of k = 2 starts at chunk floor(1 * 5 / 2) = 2 and wraps to chunk 0 in round 3.
    DistTglSchedule s = new DistTglSchedule(18, 2, 2, 2);
    assertEquals(4, s.devices());
    assertEquals(2, s.memoryViews());
    assertEquals(
        List.of(
            "0:0:0-2 1:0:2-4 2:1:8-10 3:1:10-12 | [0]",
            "0:0:4-6 1:0:6-8 2:1:12-14 3:1:14-16 | []",
            "0:0:8-10 1:0:10-12 2:1:16-18 | []",
            "0:0:12-14 1:0:14-16 2:1:0-2 3:1:2-4 | [1]",
            "0:0:16-18 2:1:4-6 3:1:6-8 | []"),
        describe(s.plan(1)));
    // every epoch walks the same rotation; every group trains on every event once per epoch
    assertEquals(describe(s.plan(1)), describe(s.plan(2)));
  }

  /**
   * Epoch parallelism j = 2 at G = 2 (i = 1, k = 1) over 5 batches of 2 events: every round's batch
   * is trained by two copies (device 0 copy 0, device 1 copy 1, "~1"), so each event is trained
   * twice per wrap, as DistTGL's two trainers of a group train each batch, while the rounds and the
   * memory walk the events once.
   */
  @Test
  void epochParallelismTrainsEveryEventJTimesPerWrap() {
    DistTglSchedule s = new DistTglSchedule(10, 2, 1, 2, 1);
    assertEquals(2, s.devices());
    assertEquals(1, s.memoryViews());
    assertEquals(
        List.of(
            "0:0:0-2 1:0:0-2~1 | [0]",
            "0:0:2-4 1:0:2-4~1 | []",
            "0:0:4-6 1:0:4-6~1 | []",
            "0:0:6-8 1:0:6-8~1 | []",
            "0:0:8-10 1:0:8-10~1 | []"),
        describe(s.plan(1)));
    int[] trained = new int[10];
    int[] writers = new int[10];
    for (RoundPlan r : s.plan(1)) {
      for (ItemPlan i : r.items()) {
        for (int e : i.events()) {
          trained[e]++;
          writers[e] += i.copy() == 0 ? 1 : 0;
        }
      }
    }
    for (int e = 0; e < 10; e++) {
      assertEquals(2, trained[e], "event " + e + " trained");
      assertEquals(1, writers[e], "event " + e + " written");
    }
    // with i = 2 the copies of a batch sit side by side: batch m of the chunk on devices 2m, 2m+1
    assertEquals(
        List.of("0:0:0-2 1:0:0-2~1 2:0:2-4 3:0:2-4~1 | [0]", "0:0:4-6 1:0:4-6~1 | []"),
        describe(new DistTglSchedule(6, 2, 2, 2, 1).plan(1)));
  }

  /**
   * The copies of j = 2 at G = 2 draw their own negatives (the losses differ from sequential's),
   * while only copy 0 writes memory, reading what batch B reads: with parameters held fixed the
   * memory ends as sequential's, over two epochs.
   */
  @Test
  void epochParallelCopiesTrainOnOwnNegativesAndOneWritesMemory() {
    Map<String, String> fixed =
        Map.of(
            "train.lr", "1e-30",
            "schedule.scale_lr", "false",
            "train.dropout", "0",
            "train.att_dropout", "0");
    Map<String, String> seq = new java.util.HashMap<>(fixed);
    seq.put("schedule.name", "sequential");
    Map<String, String> j2 = new java.util.HashMap<>(fixed);
    j2.put("schedule.name", "disttgl");
    j2.put("schedule.devices", "2");
    j2.put("schedule.epoch_parallelism", "2");
    ScheduleRuns.State sequential = ScheduleRuns.train(ScheduleRuns.run("tgn", seq, 1), 2);
    ScheduleRuns.State copies = ScheduleRuns.train(ScheduleRuns.run("tgn", j2, 2), 2);
    assertEquals(sequential.losses().size(), copies.losses().size(), "as many rounds");
    assertArrayEquals(sequential.memory(), copies.memory(), 1e-6f);
    assertArrayEquals(sequential.memoryTimes(), copies.memoryTimes());
    assertNotEquals(sequential.losses(), copies.losses(), "copy 1 draws other negatives");
  }

  @Test
  void oneGroupIsSequentialInChunksOfIBatches() {
    DistTglSchedule s = new DistTglSchedule(7, 2, 3, 1);
    assertEquals(List.of("0:0:0-2 1:0:2-4 2:0:4-6 | [0]", "0:0:6-7 | []"), describe(s.plan(1)));
  }

  /**
   * What group 1 reads: after epoch 1 its memory holds exactly what chunks 0 and 1 (events 0..7)
   * wrote after its reset in round 3 — every node's memory time is its last time in events 0..7.
   */
  @Test
  void aWrappedGroupReadsOnlyWhatItWroteSinceItsReset() {
    int[] src = {0, 1, 2, 3, 0, 1, 4, 5, 6, 7, 4, 5, 6, 7, 0, 4, 6, 2};
    int[] dst = {8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9};
    double[] time = new double[src.length];
    for (int e = 0; e < time.length; e++) {
      time[e] = e + 1;
    }
    EventStream events = TinyStreams.of(10, src, dst, time, 2);
    TrainingRun run =
        new TrainingRun(
            events,
            "hand-built",
            new Split(18, 18, 18),
            RunConfig.zoo(
                "jodie",
                Map.of(
                    "memory.dim_out", "4",
                    "memory.dim_time", "4",
                    "train.batch_size", "2",
                    "schedule.name", "disttgl",
                    "schedule.minibatch_parallelism", "2",
                    "schedule.memory_parallelism", "2")),
            1,
            new ThreadBudget(1, 1, 2),
            1);
    Schedule schedule = ScheduleFamilies.build(run.schedule(), events, run.split(), 2);
    try (StepScope scope = new StepScope();
        TrainingSession s = new TrainingSession(run.session());
        RoundRunner runner =
            new RoundRunner(s, schedule, 2, new InProcessCollective(), new LastWinsCommit())) {
      for (RoundPlan r : schedule.plan(1)) {
        runner.run(r, 1);
      }
      // times relative to the first event (time 1): event e is dated e
      double[] group1 = new double[10];
      for (int e = 0; e < 8; e++) {
        group1[src[e]] = e;
        group1[dst[e]] = e;
      }
      assertArrayEquals(group1, s.memory().view(1).lastUpdateTimes());
      double[] group0 = new double[10];
      for (int e = 0; e < 18; e++) {
        group0[src[e]] = e;
        group0[dst[e]] = e;
      }
      assertArrayEquals(group0, s.memory().view(0).lastUpdateTimes());
    }
  }
}
