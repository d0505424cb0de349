package dev.depbloom.memory;

import java.util.BitSet;
import java.util.List;

/**
 * The winners of a window-end merge ({@link MemoryStore#mergeLatest}): the rows some view of the
 * group wrote since its last merge, and per row the position in the group of the view whose memory
 * (and, apart, whose mail) write is latest ({@link WriteStamps} breaks ties of time).
 *
 * @param rows the rows written, ascending
 * @param memoryFrom per row, the winning view's position for the memory row (-1: none wrote it)
 * @param mailFrom per row, the winning view's position for the mailbox (-1: none wrote mail)
 */
record LatestWrites(int[] rows, int[] memoryFrom, int[] mailFrom) {

  /** The winners among the views {@code group} of {@code views}, stamped by {@code stamps}. */
  static LatestWrites of(List<Integer> group, List<NodeMemory> views, WriteStamps[] stamps) {
    BitSet written = new BitSet();
    for (int v : group) {
      for (int node : stamps[v].writtenNodes()) {
        written.set(node);
      }
    }
    // Rows no view of the group wrote since its last merge are equal in all of them (views reset
    // together stay equal), and so is the memory (mailbox) of a row whose memory (mail) none
    // wrote.
    int[] rows = written.stream().toArray();
    int[] memoryFrom = new int[rows.length];
    int[] mailFrom = new int[rows.length];
    for (int i = 0; i < rows.length; i++) {
      memoryFrom[i] = latest(group, views, stamps, rows[i], true);
      mailFrom[i] = latest(group, views, stamps, rows[i], false);
    }
    return new LatestWrites(rows, memoryFrom, mailFrom);
  }

  /** The rows whose memory the view at position {@code from} of the group wins. */
  int[] memoryRowsFrom(int from) {
    return rowsFrom(rows, memoryFrom, from);
  }

  /** The rows whose mailbox the view at position {@code from} of the group wins. */
  int[] mailRowsFrom(int from) {
    return rowsFrom(rows, mailFrom, from);
  }

  /**
   * The position in {@code group} of the view whose write of {@code node}'s memory (or, {@code
   * memory} false, mail) is latest, or -1 when no view of the group wrote it.
   */
  private static int latest(
      List<Integer> group, List<NodeMemory> views, WriteStamps[] stamps, int node, boolean memory) {
    int best = -1;
    double bestTime = 0;
    long bestStamp = 0;
    for (int i = 0; i < group.size(); i++) {
      int v = group.get(i);
      long stamp = memory ? stamps[v].memory(node) : stamps[v].mail(node);
      if (stamp == 0) {
        continue;
      }
      NodeMemory m = views.get(v);
      double time = memory ? m.lastUpdate(node) : m.latestMailTime(node);
      if (best < 0 || time > bestTime || (time == bestTime && stamp > bestStamp)) {
        best = i;
        bestTime = time;
        bestStamp = stamp;
      }
    }
    return best;
  }

  /** The rows whose winning view is {@code from}. */
  private static int[] rowsFrom(int[] rows, int[] winner, int from) {
    int count = 0;
    for (int w : winner) {
      if (w == from) {
        count++;
      }
    }
    int[] out = new int[count];
    for (int i = 0, k = 0; i < rows.length; i++) {
      if (winner[i] == from) {
        out[k++] = rows[i];
      }
    }
    return out;
  }
}
