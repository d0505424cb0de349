package dev.depbloom.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.WindowPartition;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Batched reads on {@link TinyStreams#handBuilt()}, every read worked out by hand:
 *
 * <pre>
 *   event  0  1  2  3  4  5  6  7
 *   src    0  0  1  0  2  0  3  1
 *   dst    1  2  2  3  2  1  0  3
 * </pre>
 *
 * Sequential at B = 2 (batches {0,1} {2,3} {4,5} {6,7}) shows: e0, e1 nothing; e2 node 1 by 0, node
 * 2 by 1; e3 node 0 by 1; e4 node 2 by 2; e5 node 0 by 3, node 1 by 2; e6 node 3 by 3, node 0 by 5;
 * e7 node 1 by 5, node 3 by 3.
 */
class BatchedReadsTest {
  private static final EventStream EVENTS = TinyStreams.handBuilt();

  private static LostDependencies window(
      WindowPartition p, int k, int batchSize, boolean refine, ReadRule rule) {
    int[] snapshot = new int[EVENTS.nodeCount()];
    Arrays.fill(snapshot, -1);
    return BatchedReads.of(
        EVENTS,
        p,
        k,
        batchSize,
        refine,
        rule,
        BatchedReads.sequentialVersions(EVENTS, 0, 8, batchSize),
        0,
        snapshot);
  }

  @Test
  void sequentialVersionsAreTheLatestWritesOfEarlierBatches() {
    int[][] v = BatchedReads.sequentialVersions(EVENTS, 0, 8, 2);
    assertEquals(Arrays.toString(new int[] {-1, -1, 0, 1, 2, 3, 3, 5}), Arrays.toString(v[0]));
    assertEquals(Arrays.toString(new int[] {-1, -1, 1, -1, 2, 2, 5, 3}), Arrays.toString(v[1]));
  }

  /**
   * Two slices {0..3} {4..7}, one micro-batch of 2. Chain 0's batches are sequential's. Chain 1
   * reads the empty snapshot in its first batch {4,5}: e4 misses node 2 twice, e5 nodes 0 and 1;
   * then its own writes (node 2 by 4, nodes 0 and 1 by 5): e6 sees node 0 but misses node 3 (chain
   * 0's), e7 sees node 1, misses node 3. 4 events, 6 reads. Under owned-rows (owners 0, 0, 0, 1)
   * chain 1 does not read its writes to nodes 0 and 1: e6 and e7 miss both reads, 8 reads.
   */
  @Test
  void aChainsBatchesReadTheSnapshotAndItsOwnEarlierBatches() {
    WindowPartition p = new ContiguousPartitioner().partition(EVENTS, 0, 8, 2);
    assertEquals(new LostDependencies(8, 4, 16, 6), window(p, 1, 2, false, ReadRule.OWN_WRITES));
    assertEquals(new LostDependencies(8, 4, 16, 8), window(p, 1, 2, false, ReadRule.OWNED_ROWS));
  }

  /**
   * One chain, large batches of 2 x 2: {0..3} reads nothing, so e2 misses nodes 1 and 2, e3 node 0;
   * {4..7} reads the writes of {0..3}: e6 misses node 0 (by 5), e7 node 1 (by 5). 4 events, 5
   * reads: DistTGL's mini-batch parallelism at i = 2. Refinement gives micro-batch {2,3} the writes
   * of {0,1} and {6,7} those of {4,5}: nothing is missed.
   */
  @Test
  void microBatchesMissTheirLargeBatchsEarlierWritesUnlessRefined() {
    WindowPartition p = new ContiguousPartitioner().partition(EVENTS, 0, 8, 1);
    assertEquals(new LostDependencies(8, 4, 16, 5), window(p, 2, 2, false, ReadRule.OWN_WRITES));
    assertEquals(new LostDependencies(8, 0, 16, 0), window(p, 2, 2, true, ReadRule.OWN_WRITES));
    assertEquals(new LostDependencies(8, 0, 16, 0), window(p, 1, 2, false, ReadRule.OWN_WRITES));
  }

  /**
   * Windows of 4, two slices of one batch each. Window {0..3}: chain 1 ({2,3}) reads the empty
   * snapshot, e2 misses nodes 1 and 2, e3 node 0. The merge leaves node 0 by 3, node 1 by 2, node 2
   * by 2, node 3 by 3. Window {4..7}: chain 0 ({4,5}) sees all; chain 1 ({6,7}) misses node 0 (by
   * 5) and node 1 (by 5). 4 events, 5 reads, under either rule (no chain has a batch after its
   * own).
   */
  @Test
  void theWindowEndMergeIsTheNextWindowsSnapshot() {
    PartitionMeasure m =
        PartitionMeasure.measure(EVENTS, 0, 8, 4, new ContiguousPartitioner(), 2, 2, 1);
    assertEquals(new LostDependencies(8, 4, 16, 5), m.batched().ownWrites());
    assertEquals(new LostDependencies(8, 4, 16, 5), m.batched().ownedRows());
    assertEquals(m.batched(), m.refined());
  }
}
