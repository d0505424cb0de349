package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.partition.TopologyPartitioner;
import dev.depbloom.profile.LostDependencies;
import dev.depbloom.profile.PartitionMeasure;
import dev.depbloom.schedule.depbloom.DepBloomSchedule;
import dev.depbloom.schedule.disttgl.DistTglSchedule;
import dev.depbloom.schedule.sequential.SequentialSchedule;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The profile's batched count ({@link dev.depbloom.profile.BatchedReads}, summed by {@link
 * PartitionMeasure}) against {@link ScheduleReads}, which walks the rounds {@link DepBloomSchedule}
 * actually plans with views, commits and merges: two implementations of one definition must agree
 * on every candidate.
 */
@Tag(Kernels.TRAINS)
class BatchedReadsOracleTest {
  private static final EventStream EVENTS = TinyStreams.random(40, 3_000, 0, 7);
  private static final int B = 50;

  @ParameterizedTest
  @CsvSource({
    "600, contiguous, 2, 2",
    "600, topology, 2, 2",
    "1200, contiguous, 4, 1",
    "1200, topology, 4, 1",
    "800, topology, 1, 4",
    "2000, topology, 2, 1"
  })
  void theProfilesCountIsWhatTheSchedulesReadsShow(
      int window, String partitionerName, int chains, int k) {
    Partitioner partitioner =
        partitionerName.equals("topology")
            ? new TopologyPartitioner()
            : new ContiguousPartitioner();
    PartitionMeasure m =
        PartitionMeasure.measure(EVENTS, 0, EVENTS.eventCount(), window, partitioner, chains, B, k);
    for (boolean refine : List.of(false, true)) {
      DepBloomSchedule s =
          new DepBloomSchedule(
              EVENTS, EVENTS.eventCount(), B, window, chains, k, partitioner, refine, false);
      ScheduleReads reads = ScheduleReads.measure(EVENTS, s, B, 1);
      LostDependencies counted = refine ? m.refined().ownWrites() : m.batched().ownWrites();
      assertEquals(counted.lostEvents(), reads.staleEvents(), s.describe());
      assertEquals(counted.lostReads(), reads.staleReads(), s.describe());
      assertEquals(counted.events(), reads.events(), s.describe());
    }
    assertTrue(
        m.batched().ownWrites().lostEvents() > 0, "a stream that loses nothing tests nothing");
  }

  @Test
  void oneLargeBatchLosesWhatDistTglsMiniBatchParallelismLoses() {
    PartitionMeasure oneChain =
        PartitionMeasure.measure(
            EVENTS, 0, EVENTS.eventCount(), 1200, new ContiguousPartitioner(), 1, B, 4);
    ScheduleReads disttgl =
        ScheduleReads.measure(EVENTS, new DistTglSchedule(EVENTS.eventCount(), B, 4, 1), B, 1);
    assertEquals(oneChain.batched().ownWrites().lostEvents(), disttgl.staleEvents());
    assertEquals(0, oneChain.refined().ownWrites().lostEvents());
    assertEquals(
        0,
        ScheduleReads.measure(EVENTS, new SequentialSchedule(EVENTS.eventCount(), B), B, 1)
            .staleReads());
  }
}
