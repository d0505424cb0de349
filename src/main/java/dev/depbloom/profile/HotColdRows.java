package dev.depbloom.profile;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.EventStream;
import dev.depbloom.sampling.RecentNeighborSampler;
import dev.depbloom.sampling.TemporalCsr;
import java.util.Arrays;
import java.util.List;

/**
 * Hot and cold rows of the memory writes (docs/schedules.md, "Critical path"): for consecutive
 * batches of {@code B} events (aligned as {@link BatchPlan} cuts them), the rows a batch writes are
 * its distinct true sources and destinations; a written row is <em>hot</em> when the next batch
 * reads it (under a {@link ReadStyle}) and <em>cold</em> otherwise. Only hot rows need to be
 * written before the next batch starts. The last batch of the range has no next batch in the range
 * and is not counted.
 *
 * @param batchSize B
 * @param readStyle what the next batch reads
 * @param batches batches counted (those with a next batch)
 * @param writtenRows distinct rows written, summed over the counted batches
 * @param hotRows written rows that the next batch reads
 */
public record HotColdRows(
    int batchSize,
    ReadStyle readStyle,
    boolean withNegatives,
    long batches,
    long writtenRows,
    long hotRows) {
  /** Recent neighbors per root under {@link ReadStyle#ROOTS_AND_RECENT_NEIGHBORS}: TGN's 10. */
  public static final int RECENT_NEIGHBORS = 10;

  /**
   * Measures the batches of {@code [from, to)}; {@code csr} (both directions, e.g. {@code
   * TemporalCsr.build(events, true)}) serves the neighbor reads and may be null for {@link
   * ReadStyle#ROOTS}; {@code negatives}, when not null, adds one negative per event to the reads,
   * batch {@code b} drawing from the stream keyed {@code b}.
   */
  public static HotColdRows measure(
      EventStream events,
      TemporalCsr csr,
      int from,
      int to,
      int batchSize,
      ReadStyle style,
      NegativeSampler negatives) {
    if (style == ReadStyle.ROOTS_AND_RECENT_NEIGHBORS && csr == null) {
      throw new IllegalArgumentException("neighbor reads need a temporal CSR");
    }
    List<int[]> bounds = BatchPlan.bounds(from, to, batchSize);
    int[] readStamp = new int[events.nodeCount()]; // 1 + last batch that reads the node
    int[] writeStamp = new int[events.nodeCount()]; // 1 + last batch that writes the node
    long written = 0;
    long hot = 0;
    try (RecentNeighborSampler sampler = sampler(csr, style)) {
      int[] previousWrites = new int[0];
      for (int b = 0; b < bounds.size(); b++) {
        int[] batch = bounds.get(b);
        markReads(events, sampler, negatives, batch, b + 1, readStamp);
        if (b > 0) {
          written += previousWrites.length;
          for (int v : previousWrites) {
            hot += readStamp[v] == b + 1 ? 1 : 0;
          }
        }
        previousWrites = distinctEndpoints(events, batch, b + 1, writeStamp);
      }
    }
    long counted = Math.max(0, bounds.size() - 1);
    return new HotColdRows(batchSize, style, negatives != null, counted, written, hot);
  }

  private static RecentNeighborSampler sampler(TemporalCsr csr, ReadStyle style) {
    return style == ReadStyle.ROOTS_AND_RECENT_NEIGHBORS
        ? new RecentNeighborSampler(csr, RECENT_NEIGHBORS)
        : null;
  }

  /** Stamps every row that batch {@code [start, end)} reads with {@code stamp}. */
  private static void markReads(
      EventStream events,
      RecentNeighborSampler sampler,
      NegativeSampler negatives,
      int[] batch,
      int stamp,
      int[] readStamp) {
    int b = batch[1] - batch[0];
    int width = negatives != null ? 3 * b : 2 * b;
    int[] roots = new int[width]; // [src | dst | neg]
    double[] times = new double[width];
    System.arraycopy(events.sources(), batch[0], roots, 0, b);
    System.arraycopy(events.destinations(), batch[0], roots, b, b);
    if (negatives != null) {
      System.arraycopy(negatives.sample(b, stamp - 1), 0, roots, 2 * b, b);
    }
    for (int k = 0; k < width / b; k++) {
      System.arraycopy(events.times(), batch[0], times, k * b, b);
    }
    for (int v : roots) {
      readStamp[v] = stamp;
    }
    if (sampler != null) {
      for (int v : sampler.sample(roots, times, stamp).layers().get(0).nodes()) {
        readStamp[v] = stamp;
      }
    }
  }

  /** The distinct true endpoints of the batch, in order of appearance. */
  private static int[] distinctEndpoints(
      EventStream events, int[] batch, int stamp, int[] writeStamp) {
    int[] out = new int[2 * (batch[1] - batch[0])];
    int n = 0;
    for (int e = batch[0]; e < batch[1]; e++) {
      n = addOnce(events.sources()[e], stamp, writeStamp, out, n);
      n = addOnce(events.destinations()[e], stamp, writeStamp, out, n);
    }
    return Arrays.copyOf(out, n);
  }

  private static int addOnce(int v, int stamp, int[] writeStamp, int[] out, int n) {
    if (writeStamp[v] == stamp) {
      return n;
    }
    writeStamp[v] = stamp;
    out[n] = v;
    return n + 1;
  }

  /** Share of written rows the next batch reads. */
  public double hotShare() {
    return writtenRows == 0 ? 0 : (double) hotRows / writtenRows;
  }

  /** Share of written rows the next batch does not read: writable off the critical path. */
  public double coldShare() {
    return writtenRows == 0 ? 0 : 1 - hotShare();
  }
}
