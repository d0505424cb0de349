package dev.depbloom.profile;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.data.EventStream;
import dev.depbloom.partition.WindowPartition;
import java.util.Arrays;

/**
 * Dependencies a DepBloom candidate loses once its chains train in batches: per endpoint read, does
 * the event see the latest write that {@code sequential} at batch {@code B} shows it (the latest
 * event touching the node in an earlier batch of {@code B})? {@link LostDependencies} answers the
 * same question event by event, as if every write were visible to the next event of its chain; here
 * the reads are those of the schedule (docs/schedules.md, "depbloom(W, P, k, B)"). Chain {@code c}
 * of a window trains its events in stream order in large batches of {@code k B}, each split into
 * {@code k} micro-batches; every event of a large batch reads its chain's view as of the batch's
 * start (the window-start snapshot plus the chain's writes of earlier large batches, all of them
 * under {@link ReadRule#OWN_WRITES}, those to nodes it owns under {@link ReadRule#OWNED_ROWS});
 * with refinement a micro-batch also reads the writes of the earlier micro-batches of its large
 * batch. The window's end merges every chain's writes, so the next window starts from what
 * sequential holds at that boundary.
 *
 * <p>Why this and not the event-level count: a chain's batch of {@code B} of its events spans about
 * {@code P B} events of the stream, and a topology chain's events share their nodes, so its batches
 * repeat nodes that sequential's batches of {@code B} would have updated in between. On Wikipedia
 * at 8 devices topology chains lose 5-9% of events counted event by event and about 70% counted
 * here, more than one large batch of {@code 8 B} does (68%, DistTGL's 8-way mini-batch
 * parallelism); contiguous chains lose 43-51%.
 */
public final class BatchedReads {
  private BatchedReads() {}

  /**
   * Sequential's version of each endpoint of events {@code [from, to)} at batch {@code B}, indexed
   * {@code e - from}: the latest event touching the node in an earlier batch, or -1. Batches are
   * aligned to multiples of {@code B} from {@code from}, as {@link BatchPlan} cuts them.
   */
  public static int[][] sequentialVersions(EventStream events, int from, int to, int batchSize) {
    int[] src = events.sources();
    int[] dst = events.destinations();
    int[] last = new int[events.nodeCount()];
    Arrays.fill(last, -1);
    int[] outSrc = new int[to - from];
    int[] outDst = new int[to - from];
    for (int[] b : BatchPlan.bounds(from, to, batchSize)) {
      for (int e = b[0]; e < b[1]; e++) {
        outSrc[e - from] = last[src[e]];
        outDst[e - from] = last[dst[e]];
      }
      for (int e = b[0]; e < b[1]; e++) {
        last[src[e]] = e;
        last[dst[e]] = e;
      }
    }
    return new int[][] {outSrc, outDst};
  }

  /**
   * The reads of one partitioned window that miss sequential's version, under {@code rule}.
   *
   * @param sequential {@link #sequentialVersions} of a range starting at {@code rangeFrom} that
   *     holds the window
   * @param snapshot per node, the latest event before the window touching it (-1 if none); updated
   *     to the window's end on return, the window-end merge
   */
  public static LostDependencies of(
      EventStream events,
      WindowPartition partition,
      int microBatches,
      int batchSize,
      boolean refine,
      ReadRule rule,
      int[][] sequential,
      int rangeFrom,
      int[] snapshot) {
    int[] src = events.sources();
    int[] dst = events.destinations();
    int[][] chainEvents = partition.chainEvents();
    int nodes = events.nodeCount();
    // a chain's committed writes and the refined writes of the current large batch, with stamps
    // so that no array is cleared per chain or batch
    int[] own = new int[nodes];
    int[] ownStamp = new int[nodes];
    int[] inBatch = new int[nodes];
    int[] inBatchStamp = new int[nodes];
    Arrays.fill(ownStamp, -1);
    Arrays.fill(inBatchStamp, -1);
    Views views =
        new Views(partition, rule, refine, snapshot, own, ownStamp, inBatch, inBatchStamp);
    int large = microBatches * batchSize;
    int largeId = 0;
    long lostEvents = 0;
    long lostReads = 0;
    for (int c = 0; c < chainEvents.length; c++) {
      int[] ev = chainEvents[c];
      for (int lo = 0; lo < ev.length; lo += large, largeId++) {
        int hi = Math.min(ev.length, lo + large);
        for (int mlo = lo; mlo < hi; mlo += batchSize) {
          int mhi = Math.min(hi, mlo + batchSize);
          for (int i = mlo; i < mhi; i++) {
            int e = ev[i];
            int lost =
                views.missed(c, largeId, src[e], sequential[0][e - rangeFrom])
                    + views.missed(c, largeId, dst[e], sequential[1][e - rangeFrom]);
            lostReads += lost;
            lostEvents += lost > 0 ? 1 : 0;
          }
          if (refine) {
            for (int i = mlo; i < mhi; i++) {
              mark(inBatch, inBatchStamp, largeId, src[ev[i]], ev[i]);
              mark(inBatch, inBatchStamp, largeId, dst[ev[i]], ev[i]);
            }
          }
        }
        for (int i = lo; i < hi; i++) {
          mark(own, ownStamp, c, src[ev[i]], ev[i]);
          mark(own, ownStamp, c, dst[ev[i]], ev[i]);
        }
      }
    }
    for (int e = partition.from(); e < partition.to(); e++) {
      snapshot[src[e]] = e;
      snapshot[dst[e]] = e;
    }
    long n = partition.eventCount();
    return new LostDependencies(n, lostEvents, 2 * n, lostReads);
  }

  /**
   * What a chain's read can see in one window: the window-start snapshot, the chains' committed
   * writes ({@code own}, stamped with the chain) and the refined writes of the current large batch
   * ({@code inBatch}, stamped with the large batch).
   */
  private record Views(
      WindowPartition partition,
      ReadRule rule,
      boolean refine,
      int[] snapshot,
      int[] own,
      int[] ownStamp,
      int[] inBatch,
      int[] inBatchStamp) {

    /**
     * 1 when the read of {@code v} by chain {@code c} is older than sequential's {@code wanted}.
     */
    int missed(int c, int largeId, int v, int wanted) {
      int seen = snapshot[v];
      boolean readsOwn = rule == ReadRule.OWN_WRITES || partition.ownerOf(v) == c;
      if (readsOwn && ownStamp[v] == c) {
        seen = Math.max(seen, own[v]);
      }
      if (refine && inBatchStamp[v] == largeId) {
        seen = Math.max(seen, inBatch[v]);
      }
      return seen < wanted ? 1 : 0;
    }
  }

  private static void mark(int[] value, int[] stamp, int id, int node, int event) {
    if (stamp[node] != id) {
      stamp[node] = id;
      value[node] = event;
    } else {
      value[node] = Math.max(value[node], event);
    }
  }
}
