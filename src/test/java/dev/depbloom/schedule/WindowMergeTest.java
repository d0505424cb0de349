package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.DataFiles;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.Schedules;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * DepBloom's window-end merge on streams with coarse time: every row ends as written by the chain
 * that holds the row's latest event in the window (the stream index decides between equal times),
 * never as a view's window-start copy.
 */
@Tag(Kernels.TRAINS)
class WindowMergeTest {
  /**
   * Windows of 4 events, 2 contiguous chains of 2, batches of 1; every event after the first at one
   * time. Window 0: chain 0 writes node 3 at event 1, chain 1 at event 3 (later, same time). Window
   * 1: only chain 1 writes node 3 (event 7), at the time the window-start copy already has; chain 0
   * writes node 7 at event 5 and chain 1 at event 7. Each time chain 1's update must survive the
   * merge (comparing times with ties to the lowest view kept chain 0's row or the stale copy).
   */
  @Test
  void theLatestEventsChainWinsAtEqualTimes() {
    //  event: 0     1     2     3   | 4     5     6     7
    //  src:   0     1     2     3   | 0     1     2     3
    //  dst:   5     3     6     6   | 5     7     6     7
    int[] src = {0, 1, 2, 3, 0, 1, 2, 3};
    int[] dst = {5, 3, 6, 6, 5, 7, 6, 7};
    double[] time = {0, 1, 1, 1, 1, 1, 1, 1};
    EventStream events = TinyStreams.of(8, src, dst, time, 2);
    Map<String, String> o = depbloom(4, 2);
    o.put("memory.dim_out", "4");
    o.put("memory.dim_time", "4");
    o.put("train.batch_size", "1");
    TrainingRun run =
        new TrainingRun(
            events,
            "hand-built",
            new Split(8, 8, 8),
            RunConfig.zoo("jodie", o),
            1,
            new ThreadBudget(1, 1, 1),
            1);
    List<Merge> merges = trainCheckingMerges(run, 1);
    assertEquals(2, merges.size());
    for (Merge m : merges) {
      m.assertEveryRowFromItsLatestEvent();
    }
    assertEquals(1, merges.get(0).winner()[3], "window 0: node 3's latest event (3) is chain 1's");
    assertEquals(1, merges.get(1).winner()[3], "window 1: node 3 is written by chain 1 alone");
    assertEquals(1, merges.get(1).winner()[7], "window 1: node 7's latest event (7) is chain 1's");
  }

  /** USLegis's first 300 events share one timestamp: every merge decides by stream index alone. */
  @Test
  void onAStreamOfOneTimestampEveryRowComesFromItsLatestEventsChain() {
    EventStream events =
        EventLoader.load(DataFiles.fixture("cuts/USLegis-head300.csv"), LoadOptions.defaults());
    List<Merge> merges = trainCheckingMerges(fixedParameters(events, 60, 20), 2);
    assertEquals(8, merges.size(), "2 epochs of 4 windows over 210 training events");
    for (Merge m : merges) {
      m.assertEveryRowFromItsLatestEvent();
      assertTrue(m.rowsWonByChain(1) > 0, "chain 1 holds the latest event of some rows");
    }
  }

  /** The same on the whole USLegis stream (12 congresses: 12 distinct timestamps). */
  @Test
  @Tag("shared-data")
  void onUsLegisEveryRowComesFromItsLatestEventsChain() {
    EventStream events =
        EventLoader.load(DataFiles.shared("USLegis.csv.gz"), LoadOptions.defaults());
    List<Merge> merges = trainCheckingMerges(fixedParameters(events, 4_800, 600), 1);
    assertTrue(merges.size() >= 8, "windows of 4,800 over 42,277 training events");
    long wonByChain1 = 0;
    for (Merge m : merges) {
      m.assertEveryRowFromItsLatestEvent();
      wonByChain1 += m.rowsWonByChain(1);
    }
    assertTrue(wonByChain1 > 100, "chain 1 holds the latest event of many rows: " + wonByChain1);
  }

  private static Map<String, String> depbloom(int window, int chains) {
    Map<String, String> o = new HashMap<>();
    o.put("schedule.name", "depbloom");
    o.put("schedule.window", String.valueOf(window));
    o.put("schedule.partitioner", "contiguous");
    o.put("schedule.chains", String.valueOf(chains));
    o.put("schedule.micro_batches", "1");
    o.put("schedule.critical_path", "false");
    return o;
  }

  /** TGN at small widths, parameters held fixed, 2 contiguous chains in windows of {@code W}. */
  private static TrainingRun fixedParameters(EventStream events, int window, int batchSize) {
    Map<String, String> o = depbloom(window, 2);
    o.put("train.lr", "1e-30");
    o.put("schedule.scale_lr", "false");
    o.put("train.dropout", "0");
    o.put("train.att_dropout", "0");
    o.put("memory.dim_out", "8");
    o.put("memory.dim_time", "4");
    o.put("gnn.dim_out", "8");
    o.put("gnn.dim_time", "4");
    o.put("train.batch_size", String.valueOf(batchSize));
    return new TrainingRun(
        events,
        "uslegis",
        Split.of(events),
        RunConfig.zoo("tgn", o),
        3,
        new ThreadBudget(1, 1, 1),
        1);
  }

  /**
   * One window-end merge: every view's memory and mailbox before it, the views after it, and per
   * node the view whose chain holds the node's latest event in the window (-1: not written).
   */
  private record Merge(
      List<Integer> group,
      List<float[]> memoryBefore,
      List<float[]> mailBefore,
      List<float[]> memoryAfter,
      List<float[]> mailAfter,
      int[] winner,
      int dim,
      int mailWidth) {

    void assertEveryRowFromItsLatestEvent() {
      for (int node = 0; node < winner.length; node++) {
        for (int v = 0; v < group.size(); v++) {
          int from = winner[node] < 0 ? v : winner[node];
          String where = "node " + node + " in view " + v + ", latest event's view " + from;
          assertArrayEquals(
              row(memoryBefore.get(from), node, dim),
              row(memoryAfter.get(v), node, dim),
              "memory of " + where);
          assertArrayEquals(
              row(mailBefore.get(from), node, mailWidth),
              row(mailAfter.get(v), node, mailWidth),
              "mailbox of " + where);
        }
      }
    }

    long rowsWonByChain(int chain) {
      return Arrays.stream(winner).filter(w -> w == chain).count();
    }

    private static float[] row(float[] all, int node, int width) {
      return Arrays.copyOfRange(all, node * width, (node + 1) * width);
    }
  }

  /**
   * Trains the run's DepBloom schedule with the merges taken out of the rounds and done here, to
   * see every view just before and after each one.
   */
  private static List<Merge> trainCheckingMerges(TrainingRun run, int epochs) {
    Schedule schedule = Schedules.of(run);
    List<Merge> merges = new ArrayList<>();
    try (StepScope scope = new StepScope();
        TrainingSession s = new TrainingSession(run.session());
        RoundRunner runner =
            new RoundRunner(s, schedule, 1, new InProcessCollective(), new LastWinsCommit())) {
      MemoryStore store = s.memory();
      int nodes = run.events().nodeCount();
      for (int epoch = 1; epoch <= epochs; epoch++) {
        List<RoundPlan> rounds = schedule.plan(epoch);
        int[][] latest = new int[store.viewCount()][nodes]; // [view][node] latest event, or -1
        for (int[] l : latest) {
          Arrays.fill(l, -1);
        }
        for (int r = 0; r < rounds.size(); r++) {
          RoundPlan round = rounds.get(r);
          for (ItemPlan item : round.items()) {
            for (int e : item.events()) {
              latest[item.view()][run.events().sources()[e]] = e;
              latest[item.view()][run.events().destinations()[e]] = e;
            }
          }
          RoundPlan withoutMerge =
              new RoundPlan(
                  round.index(), round.items(), round.resetViews(), List.of(), round.prefills());
          runner.run(withoutMerge, r + 1 < rounds.size() ? rounds.get(r + 1) : null, epoch);
          for (List<Integer> group : round.merges()) {
            merges.add(merge(store, group, latest, nodes));
          }
          if (round.mergeViews()) {
            for (int[] l : latest) {
              Arrays.fill(l, -1);
            }
          }
        }
      }
    }
    return merges;
  }

  private static Merge merge(MemoryStore store, List<Integer> group, int[][] latest, int nodes) {
    int[] winner = new int[nodes];
    for (int node = 0; node < nodes; node++) {
      winner[node] = -1;
      int best = -1;
      for (int v = 0; v < group.size(); v++) {
        if (latest[group.get(v)][node] > best) {
          best = latest[group.get(v)][node];
          winner[node] = v;
        }
      }
    }
    List<float[]> memoryBefore = memories(store, group, true);
    List<float[]> mailBefore = memories(store, group, false);
    store.mergeLatest(group);
    NodeMemory shape = store.view(group.get(0));
    return new Merge(
        group,
        memoryBefore,
        mailBefore,
        memories(store, group, true),
        memories(store, group, false),
        winner,
        shape.dim(),
        shape.mailboxSize() * shape.mailDim());
  }

  private static List<float[]> memories(MemoryStore store, List<Integer> group, boolean memory) {
    List<float[]> out = new ArrayList<>();
    for (int v : group) {
      NodeMemory m = store.view(v);
      out.add(
          Tensors.toFloats((memory ? m.memoryTensor() : m.mailboxTensor()).contiguous().view(-1)));
    }
    return out;
  }
}
