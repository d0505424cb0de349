package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.schedule.depbloom.DepBloomSchedule;
import dev.depbloom.schedule.disttgl.DistTglSchedule;
import dev.depbloom.schedule.sequential.SequentialSchedule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which process runs which logical device, and which world sizes a schedule accepts. */
@Tag(Kernels.TRAINS)
class RankPlacementTest {
  private static List<Integer> ranks(Schedule s, int worldSize) {
    List<Integer> out = new ArrayList<>();
    for (int d = 0; d < s.devices(); d++) {
      out.add(s.rankOf(d, worldSize));
    }
    return out;
  }

  private static DepBloomSchedule depbloom(int chains, int microBatches) {
    EventStream events = TinyStreams.random(40, 600, 0, 3);
    return new DepBloomSchedule(
        events, 500, 20, 200, chains, microBatches, new ContiguousPartitioner(), true, true);
  }

  @Test
  void disttglItemsAreIndependentWithinARoundSoDeviceDRunsOnRankDModW() {
    DistTglSchedule s = new DistTglSchedule(1000, 100, 2, 2);
    assertEquals(List.of(0, 1, 0, 1), ranks(s, 2));
    assertEquals(List.of(0, 0, 0, 0), ranks(s, 1));
    assertFalse(s.writeExchange().atMerges());
  }

  @Test
  void aSubChainsMicroBatchesReadEachOtherSoTheChainRunsOnOneRank() {
    DepBloomSchedule s = depbloom(4, 2); // chain p on devices 2p, 2p + 1
    assertEquals(List.of(0, 0, 1, 1, 0, 0, 1, 1), ranks(s, 2));
    assertEquals(List.of(0, 0, 1, 1, 2, 2, 3, 3), ranks(s, 4));
    assertTrue(s.writeExchange().atMerges());
  }

  @Test
  void aWorldSizeThatDoesNotDivideTheDevicesIsASetUpError() {
    DistTglSchedule s = new DistTglSchedule(1000, 100, 3, 1);
    s.checkWorldSize(3);
    InputException e = assertThrows(InputException.class, () -> s.checkWorldSize(2));
    assertEquals(
        "WORLD_SIZE=2: 2 processes cannot share the 3 logical device(s) of disttgl(i=3, k=1,"
            + " B=100) evenly; choose --devices G with G a multiple of the process count",
        e.getMessage());
    assertThrows(InputException.class, () -> new SequentialSchedule(1000, 100).checkWorldSize(2));
  }

  @Test
  void depbloomNeedsWholeChainsOnEveryRank() {
    DepBloomSchedule s = depbloom(2, 2); // G = 4 divides by 4, but 2 chains cannot fill 4 ranks
    s.checkWorldSize(2);
    InputException e = assertThrows(InputException.class, () -> s.checkWorldSize(4));
    assertTrue(
        e.getMessage().startsWith("WORLD_SIZE=4: depbloom(W=200, P=2 contiguous, k=2"),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .endsWith(
                "runs each of its 2 sub-chain(s) in one process, so the process count must"
                    + " divide the chain count P (schedule.chains)"),
        e.getMessage());
  }
}
