package dev.depbloom.profile;

import dev.depbloom.data.EventStream;
import dev.depbloom.partition.WindowPartition;
import java.util.Arrays;

/**
 * How much a stream's coarse time weighs on DepBloom's window-end merge: of the rows the chains of
 * a window write (an event's endpoints), those whose latest write ties in time with another view's
 * row at the merge — another chain's write, or the window-start copy of a view that did not write
 * the row — so that time alone cannot tell which is latest. The merge decides them by the stream
 * index of the writing event ({@code MemoryStore.mergeLatest}). {@code lostByTimeOnly} counts the
 * rows a merge by time alone (ties to the lowest view, every view competing with its copy; the rule
 * before 2026-12-04) would have taken from a view that does not hold the row's latest event: an
 * update discarded in every view.
 *
 * <p>Time-only: a node's window-start copy is dated with the latest event touching it before the
 * window (0 without one), as memory times are. On USLegis (12 distinct timestamps) most merged rows
 * tie; on Wikipedia and email-Eu almost none.
 *
 * @param mergedRows rows written in a window by any chain, summed over windows
 * @param tiedRows of them, rows whose latest write ties in time with another view's row
 * @param lostByTimeOnly of them, rows a time-only merge takes from the wrong view
 */
public record MergeTies(long mergedRows, long tiedRows, long lostByTimeOnly) {
  public static final MergeTies NONE = new MergeTies(0, 0, 0);

  /** The ties of one partitioned window; {@code previousTouch[v]} is the last event touching v. */
  static MergeTies of(EventStream events, WindowPartition partition, int[] previousTouch) {
    int chains = partition.chains();
    int[] src = events.sources();
    int[] dst = events.destinations();
    double[] time = events.times();
    int nodes = events.nodeCount();
    int[][] lastByChain = new int[chains][nodes];
    for (int[] l : lastByChain) {
      Arrays.fill(l, -1);
    }
    for (int e = partition.from(); e < partition.to(); e++) {
      int c = partition.chainOf(e);
      lastByChain[c][src[e]] = e;
      lastByChain[c][dst[e]] = e;
    }
    long merged = 0;
    long tied = 0;
    long lost = 0;
    for (int v : partition.activeNodes()) {
      int latest = -1;
      for (int[] l : lastByChain) {
        latest = Math.max(latest, l[v]);
      }
      if (latest < 0) {
        continue;
      }
      merged++;
      double copyTime = previousTouch[v] < 0 ? 0 : time[previousTouch[v]];
      int atLatestTime = 0;
      int firstAtMax = -1;
      double max = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < chains; c++) {
        double t = lastByChain[c][v] < 0 ? copyTime : time[lastByChain[c][v]];
        if (t == time[latest]) {
          atLatestTime++;
        }
        if (t > max) {
          max = t;
          firstAtMax = c;
        }
      }
      tied += atLatestTime > 1 ? 1 : 0;
      lost += firstAtMax != partition.chainOf(latest) ? 1 : 0;
    }
    for (int e = partition.from(); e < partition.to(); e++) {
      previousTouch[src[e]] = e;
      previousTouch[dst[e]] = e;
    }
    return new MergeTies(merged, tied, lost);
  }

  /** The sum of two counts (e.g. of consecutive windows). */
  public MergeTies plus(MergeTies o) {
    return new MergeTies(
        mergedRows + o.mergedRows, tiedRows + o.tiedRows, lostByTimeOnly + o.lostByTimeOnly);
  }

  /** Share of merged rows whose latest write ties in time with another view's row. */
  public double tiedShare() {
    return mergedRows == 0 ? 0 : (double) tiedRows / mergedRows;
  }

  /** Share of merged rows a time-only merge would take from the wrong view. */
  public double lostByTimeOnlyShare() {
    return mergedRows == 0 ? 0 : (double) lostByTimeOnly / mergedRows;
  }
}
