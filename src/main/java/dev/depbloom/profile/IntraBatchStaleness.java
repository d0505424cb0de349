package dev.depbloom.profile;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.data.EventStream;

/**
 * Intra-batch repeated-node share (docs/schedules.md, "Intra-batch memory refinement"; measured:
 * docs/architecture.md, "The dependency profile"): an event is <em>stale</em> in a batch when one
 * of its endpoints is an endpoint of an earlier event of the same batch, because every event of a
 * batch reads the memory as of the batch's start. With large batches of {@code k B} events split
 * into {@code k} micro-batches of {@code B} (aligned to multiples of the sizes, as {@link
 * BatchPlan} cuts them), a stale event is
 *
 * <ul>
 *   <li><em>residual</em> when an endpoint repeats within its own micro-batch: intra-batch memory
 *       refinement cannot help, the event is stale as it would be at batch {@code B};
 *   <li><em>recoverable</em> otherwise: every repeated endpoint was written by an earlier
 *       micro-batch of the same large batch, which refinement approximates (exactly, in the form of
 *       docs/schedules.md, "Intra-batch memory refinement").
 * </ul>
 *
 * Only true endpoints count, as only they write memory. An event's own two endpoints do not make it
 * stale (a self-loop is stale only if its node appeared before). With {@code k = 1} nothing is
 * recoverable and the stale share is that of batch {@code B}.
 *
 * @param batchSize micro-batch size B
 * @param microBatches k
 * @param events events counted
 * @param staleEvents events stale in their large batch of {@code k B}
 * @param residualEvents events stale within their own micro-batch of B
 */
public record IntraBatchStaleness(
    int batchSize, int microBatches, long events, long staleEvents, long residualEvents) {

  /** Measures the events {@code [from, to)}. */
  public static IntraBatchStaleness measure(
      EventStream events, int from, int to, int batchSize, int microBatches) {
    if (batchSize < 1 || microBatches < 1) {
      throw new IllegalArgumentException(
          "batch size and micro-batch count must be positive, got "
              + batchSize
              + " and "
              + microBatches);
    }
    int[] src = events.sources();
    int[] dst = events.destinations();
    int[] largeStamp = new int[events.nodeCount()]; // 1 + last large batch that touched the node
    int[] microStamp = new int[events.nodeCount()]; // 1 + last micro-batch that touched the node
    long stale = 0;
    long residual = 0;
    int large = 0;
    int micro = 0;
    for (int[] l : BatchPlan.bounds(from, to, batchSize * microBatches)) {
      large++;
      for (int[] m : BatchPlan.bounds(l[0], l[1], batchSize)) {
        micro++;
        for (int e = m[0]; e < m[1]; e++) {
          int s = src[e];
          int d = dst[e];
          stale += largeStamp[s] == large || largeStamp[d] == large ? 1 : 0;
          residual += microStamp[s] == micro || microStamp[d] == micro ? 1 : 0;
          largeStamp[s] = large;
          largeStamp[d] = large;
          microStamp[s] = micro;
          microStamp[d] = micro;
        }
      }
    }
    return new IntraBatchStaleness(batchSize, microBatches, to - from, stale, residual);
  }

  /** Share of events stale in their large batch of {@code k B}. */
  public double staleShare() {
    return share(staleEvents);
  }

  /** Share of events stale within their micro-batch: what refinement leaves. */
  public double residualShare() {
    return share(residualEvents);
  }

  /** Share of events stale only because of an earlier micro-batch: what refinement recovers. */
  public double recoverableShare() {
    return share(staleEvents - residualEvents);
  }

  /** Recoverable over stale events: the part of the staleness refinement removes. */
  public double recoveredFraction() {
    return staleEvents == 0 ? 0 : (double) (staleEvents - residualEvents) / staleEvents;
  }

  private double share(long count) {
    return events == 0 ? 0 : (double) count / events;
  }
}
