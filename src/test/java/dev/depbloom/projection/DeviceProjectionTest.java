package dev.depbloom.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundCosts.Prefill;
import dev.depbloom.observe.RoundCosts.TaskCost;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.tensor.KernelLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The projection's round model on hand-made costs (milliseconds as nanoseconds * 1e6). */
class DeviceProjectionTest {
  private static final long MS = 1_000_000;

  /** sample, refine, fetch + update + write (as fetch), train, in ms. */
  private static TaskCost task(
      int device, int chain, int micro, long sample, long refine, long pre, long train) {
    return new TaskCost(
        device, chain, micro, sample * MS, 99 * MS, refine * MS, pre * MS, 0, 0, train * MS);
  }

  /** Round 0 of 10 events: its items, prefills, and nothing at the round's end; no work kept. */
  private static RoundCosts onlyItems(List<TaskCost> tasks, Prefill prefill) {
    return new RoundCosts(0, 10, tasks, 0, 0, 0, 0, 0, 0, 0, 0, prefill, RoundWork.none(0, 10));
  }

  @Test
  void independentDevicesCostTheSlowestAndTheWaitHereIsIgnored() {
    RoundCosts c =
        onlyItems(List.of(task(0, 0, -1, 1, 0, 5, 10), task(1, 1, -1, 2, 0, 3, 20)), Prefill.NONE);
    assertEquals(0.025, DeviceProjection.compute(c), 1e-12);
  }

  @Test
  void refinedMicroBatchesChainOnTheirPredecessorsWrite() {
    // chain 0: j0 publishes at 1 + 5 = 6, ends 16; j1 ready at max(1, 6), publishes 6 + 2 + 5 = 13,
    // ends 13 + 10 = 23; j2 ready 13, publishes 20, ends 30. A second chain is independent.
    RoundCosts c =
        onlyItems(
            List.of(
                task(0, 0, 0, 1, 0, 5, 10),
                task(1, 0, 1, 1, 2, 5, 10),
                task(2, 0, 2, 1, 2, 5, 10),
                task(3, 1, 0, 1, 0, 5, 10)),
            Prefill.NONE);
    assertEquals(0.030, DeviceProjection.compute(c), 1e-12);
  }

  /**
   * Memory on the devices: one device per view, so no row crosses per round but the merge's (until
   * 2026-12-04 the round's critical writes of all views crossed one link, 4 ms here, whatever the
   * placement).
   */
  @Test
  void aRoundAddsTheRingAllReduceAndTheSlowestViewsCommitAndMerge() {
    DeviceProjection p =
        new DeviceProjection(
            4, 8_000_000, new DeviceProjection.Link(1e-5, 1e9), MemoryPlacement.DEVICE);
    // ring over 4: 2 * 3 * 10 us + 2 * 3/4 * 8 MB / 1 GB/s = 60 us + 12 ms
    assertEquals(0.01206, p.allReduce(), 1e-12);
    // commit 2 ms and merge 3 ms over all views, 1.5 ms and 1 ms of them the slowest view's; the
    // merge copied 2 MB into the view that received most
    RoundCosts c =
        new RoundCosts(
            0,
            10,
            List.of(task(0, 0, -1, 0, 0, 0, 10)),
            7 * MS,
            1 * MS,
            2 * MS,
            3 * MS,
            4_000_000,
            1_500_000,
            1 * MS,
            2_000_000,
            Prefill.NONE,
            RoundWork.none(0, 10));
    p.roundFinished(c);
    // device 10 ms, all-reduce, optimizer 1 ms, slowest view's commit and merge 2.5 ms, merge
    // transfer 10 us + 2 ms
    assertEquals(0.010 + 0.01206 + 0.001 + 0.0025 + 0.00001 + 0.002, p.seconds(), 1e-12);
    // this process: all-reduce 7 ms as measured, optimizer, every view's commit and merge in turn
    assertEquals(0.010 + 0.007 + 0.001 + 0.002 + 0.003, p.measuredLink(), 1e-12);
  }

  @Test
  void aPrefillAddsTheSlowestGroupsChainWithItsHandoffsOverTheLink() {
    DeviceProjection p =
        new DeviceProjection(1, 0, new DeviceProjection.Link(1e-5, 1e9), MemoryPlacement.DEVICE);
    // two groups prefilled: 5 ms in all, the slower 3 ms with two handoffs of 1 MB together
    RoundCosts c =
        onlyItems(List.of(task(0, 0, -1, 0, 0, 0, 10)), new Prefill(5 * MS, 3 * MS, 1_000_000, 2));
    p.roundFinished(c);
    assertEquals(0.010 + 0.003 + 2 * 0.00001 + 0.001, p.seconds(), 1e-12);
    assertEquals(0.010 + 0.005, p.measuredLink(), 1e-12);
  }

  @Test
  void prefillsAddUpAndTheSlowestKeepsItsBytesAndHandoffs() {
    Prefill p = Prefill.NONE.plus(2 * MS, 100, 1).plus(3 * MS, 700, 2);
    assertEquals(new Prefill(5 * MS, 3 * MS, 700, 2), p);
    assertEquals(new Prefill(6 * MS, 3 * MS, 700, 2), p.plus(1 * MS, 50, 3));
  }

  @Test
  void oneDeviceHasNoAllReduce() {
    assertEquals(
        0,
        new DeviceProjection(1, 8_000_000, DeviceProjection.Link.PCIE4, MemoryPlacement.DEVICE)
            .allReduce());
  }

  /**
   * Memory in host memory (DistTGL): each device reads its rows over its own link before computing
   * and sends its write back after, in parallel with the other devices: device 0 reads 2 MB and
   * writes 1 MB (10 us + 2 ms, 10 us + 1 ms) on its 10 ms, device 1 reads and writes nothing on 12
   * ms; the slower path is device 0's 13.02 ms.
   */
  @Test
  void withMemoryInHostMemoryEachDeviceMovesItsOwnRowsOverItsOwnLink() {
    DeviceProjection p =
        new DeviceProjection(
            2, 0, new DeviceProjection.Link(1e-5, 1e9), MemoryPlacement.HOST_DAEMON);
    KernelLog none = new KernelLog();
    RoundWork work =
        new RoundWork(
            0,
            10,
            List.of(
                new RoundWork.ItemWork(
                    0, 0, -1, 0, none, none, none, none, none, 2_000_000, 0, 0, 1_000_000),
                new RoundWork.ItemWork(1, 0, -1, 0, none, none, none, none, none, 0, 0, 0, 0)),
            none,
            0,
            List.of(),
            List.of(),
            List.of());
    RoundCosts c =
        new RoundCosts(
            0,
            10,
            List.of(task(0, 0, -1, 0, 0, 0, 10), task(1, 0, -1, 0, 0, 0, 12)),
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            Prefill.NONE,
            work);
    p.roundFinished(c);
    assertEquals(0.010 + 0.00001 + 0.002 + 0.00001 + 0.001, p.seconds() - p.allReduce(), 1e-12);
  }
}
