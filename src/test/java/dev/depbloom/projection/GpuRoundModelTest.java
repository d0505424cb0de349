package dev.depbloom.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.tensor.KernelLog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The round model's rules on hand-built rounds, with hand-computed times. */
class GpuRoundModelTest {
  /** A100 PCIe as shipped but for the launch overhead, the prior 8 us (the hand counts use it). */
  private static final DeviceModel A100 = DeviceModel.load("a100-pcie").withLaunchSeconds(8e-6);

  private static KernelLog log(double... flopsBytes) {
    KernelLog l = new KernelLog();
    for (int i = 0; i < flopsBytes.length; i += 2) {
      l.add(flopsBytes[i], flopsBytes[i + 1]);
    }
    return l;
  }

  private static RoundWork.ItemWork item(
      int device, int view, int microBatch, KernelLog train, long readBytes, long writeBytes) {
    return new RoundWork.ItemWork(
        device,
        view,
        microBatch,
        0,
        log(0, 1_000, 0, 1_000), // two tiny gathers: launch-bound, 8 us each
        log(39e9, 0), // 39 GFLOP at 19.5 TFLOP/s: 2 ms
        new KernelLog(),
        train,
        new KernelLog(),
        readBytes,
        0,
        0,
        writeBytes);
  }

  private static RoundWork round(List<RoundWork.ItemWork> items, long gradientBytes) {
    return new RoundWork(
        0,
        600,
        items,
        log(0, 100), // the optimizer: one launch-bound kernel
        gradientBytes,
        List.of(new RoundWork.ViewCommit(0, log(0, 100), 1_000, 0)),
        List.of(),
        List.of());
  }

  /**
   * One item on one A100 PCIe with memory on the device: fetch 2 x 8 us, memory update 2 ms,
   * training 2.5 GB at 1,250 GB/s = 2 ms, optimizer 8 us, commit 8 us: 4.032 ms, of it 32 us
   * launch-bound; no all-reduce on one device.
   */
  @Test
  void aTinyItemCostsItsHandComputedTime() {
    RoundWork w = round(List.of(item(0, 0, -1, log(0, 2.5e9), 0, 0)), 4_000);
    RoundTime t = new GpuRoundModel(A100, MemoryPlacement.DEVICE, 1).round(w, 0);
    assertEquals(4.032e-3, t.seconds(), 1e-12);
    assertEquals(32e-6, t.launch(), 1e-12);
    assertEquals(4e-3, t.compute(), 1e-12);
    assertEquals(0, t.allReduce());
  }

  /**
   * DistTGL's daemon gathers the i trainers' reads of a group one after the other, so the last
   * trainer waits for all of them: the daemon term is {@code i} times one gather (1 MB at 10 GB/s =
   * 100 us), whatever else the round does.
   */
  @Test
  void theDaemonTermGrowsLinearlyWithTheTrainersOfAGroup() {
    double oneGather = 1e6 / 10e9;
    for (int i : new int[] {1, 2, 4, 8}) {
      List<RoundWork.ItemWork> items = new ArrayList<>();
      for (int d = 0; d < i; d++) {
        items.add(item(d, 0, -1, log(0, 2.5e9), 1_000_000, 0));
      }
      RoundTime t =
          new GpuRoundModel(A100, MemoryPlacement.HOST_DAEMON, i).round(round(items, 4_000), 0);
      assertEquals(i * oneGather, t.daemon(), 1e-12, "i = " + i);
      // the same reads copied in through pageable memory: 7 us + 1 MB at 8 GB/s
      assertEquals(7e-6 + 1e6 / 8e9, t.hostTraffic(), 1e-12, "i = " + i);
    }
  }

  /**
   * After an epoch's first round DistTGL's daemon gathers the next reads while the trainers train
   * (train.py writes in the forward pass, before backward): with a 2 ms training pass a 100 us
   * gather leaves no daemon time on the round's path; with reads so large that the daemon is
   * slower, the round is the daemon's: the write's arrival, its apply and the next gather.
   */
  @Test
  void distTglsNextGatherOverlapsTheTrainingPass() {
    GpuRoundModel m = new GpuRoundModel(A100, MemoryPlacement.HOST_DAEMON, 1);
    RoundTime later = m.round(round(List.of(item(0, 0, -1, log(0, 2.5e9), 1_000_000, 0)), 0), 1);
    assertEquals(0, later.daemon(), 1e-15);
    RoundTime first = m.round(round(List.of(item(0, 0, -1, log(0, 2.5e9), 1_000_000, 0)), 0), 0);
    assertEquals(1e6 / 10e9, first.daemon(), 1e-12, "an epoch's first round waits for its gather");
    // 100 MB of reads: copy in 7 us + 12.5 ms, fetch 16 us + update 2 ms, write-back 7 us + 2 MB at
    // 8 GB/s; then the daemon applies 2 MB and gathers 100 MB at 10 GB/s, past the 2 ms training
    long reads = 100_000_000;
    long writes = 2_000_000;
    RoundTime slow = m.round(round(List.of(item(0, 0, -1, log(0, 2.5e9), reads, writes)), 0), 1);
    double written = 7e-6 + reads / 8e9 + 16e-6 + 2e-3 + 7e-6 + writes / 8e9;
    assertEquals(written + writes / 10e9 + reads / 10e9, slow.seconds(), 1e-12);
    assertEquals(writes / 10e9 + reads / 10e9, slow.daemon(), 1e-12);
  }

  /**
   * DistTGL's inputs (edge features once per sampled edge) come in through pageable memory and its
   * write goes out into touched buffers; the rules until 2026-12-06 priced the distinct edges'
   * features through pinned memory and the write into fresh pageable memory.
   */
  @Test
  void distTglsInputsArePageableWithEveryEdgesFeaturesAndItsWriteGoesToTouchedMemory() {
    RoundWork.ItemWork i =
        new RoundWork.ItemWork(
            0, 0, -1, 0, log(), log(), log(), log(), log(), 0, 4_000_000, 6_000_000, 1_000_000);
    RoundWork w = round(List.of(i), 0);
    RoundTime now = new GpuRoundModel(A100, MemoryPlacement.HOST_DAEMON, 1).round(w, 1);
    double in = 7e-6 + 10e6 / 8e9;
    double out = 7e-6 + 1e6 / 8e9; // a100-pcie's d2h_touched_gbps: 8
    assertEquals(in + out, now.hostTraffic(), 1e-12);
    RoundTime before =
        new GpuRoundModel(A100, MemoryPlacement.HOST_DAEMON, 1, DaemonRules.UNTIL_2026_12_06)
            .round(w, 1);
    assertEquals(7e-6 + 4e6 / 25.8e9 + 7e-6 + 1e6 / 1.4e9, before.hostTraffic(), 1e-12);
    RoundTime onDevice = new GpuRoundModel(A100, MemoryPlacement.DEVICE, 1).round(w, 1);
    assertEquals(7e-6 + 4e6 / 25.8e9, onDevice.hostTraffic(), 1e-12, "pinned, distinct edges");
  }

  /** Components add up to the round, under both placements. */
  @Test
  void theBreakdownAddsUpToTheRound() {
    List<RoundWork.ItemWork> items =
        List.of(
            item(0, 0, 0, log(1e9, 1e6), 500_000, 200_000),
            item(1, 0, 1, log(1e9, 1e6), 500_000, 200_000));
    for (MemoryPlacement p : MemoryPlacement.values()) {
      for (DaemonRules r : List.of(DaemonRules.DISTTGL, DaemonRules.UNTIL_2026_12_06)) {
        for (double previous : new double[] {0, 1e-3}) {
          RoundTime t = new GpuRoundModel(A100, p, 2, r).round(round(items, 1_000_000), previous);
          assertBreakdownAddsUp(t, p.name() + " " + r + " " + previous);
        }
      }
    }
  }

  private static void assertBreakdownAddsUp(RoundTime t, String what) {
    double sum =
        t.compute()
            + t.launch()
            + t.hostTraffic()
            + t.daemon()
            + t.link()
            + t.allReduce()
            + t.sample();
    assertEquals(t.seconds(), sum, 1e-12, what);
    assertTrue(t.allReduce() > 0, what);
  }

  /**
   * Refined micro-batches wait for the previous one's published write and its crossing of the link:
   * with two micro-batches of one chain the second starts after the first's fetch, update and write
   * (16 us + 2 ms) and the link (5 us + 200 KB at 22 GB/s).
   */
  @Test
  void aRefinedMicroBatchWaitsForThePreviousWriteAndItsLink() {
    List<RoundWork.ItemWork> items =
        List.of(item(0, 0, 0, log(0, 100), 0, 200_000), item(1, 0, 1, log(0, 100), 0, 200_000));
    RoundTime t = new GpuRoundModel(A100, MemoryPlacement.DEVICE, 2).round(round(items, 0), 0);
    double first = 16e-6 + 2e-3;
    double link = 5e-6 + 200_000 / 22e9;
    double second = first + link + 16e-6 + 2e-3 + 8e-6;
    // step, commit and the commit's 1,000 bytes crossing to the chain's other GPU
    double end = A100.allReduce(0, 2) + 8e-6 + 8e-6 + 5e-6 + 1_000 / 22e9;
    assertEquals(second + end, t.seconds(), 1e-12);
  }
}
