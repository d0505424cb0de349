package dev.depbloom.memory;

import java.util.Arrays;

/**
 * Which event last wrote each row of one memory view since the view's last window-end merge: the
 * ordering key of DepBloom's merge ({@link MemoryStore#mergeLatest}). A stamp is 0 for a row not
 * written since the merge; otherwise it grows with the stream index of the writing event, and of
 * two writes of one event a training write outranks a replay (a prefill's or a copy of one), so a
 * replayed row never outlives the owner chain's own write of the same event.
 *
 * <p>Memory rows and mailboxes are stamped separately ({@code [nodeCount]} each): APAN delivers
 * mail to nodes whose memory the batch does not write.
 */
final class WriteStamps {
  private final long[] memory; // [N]
  private final long[] mail; // [N]

  WriteStamps(int nodeCount) {
    memory = new long[nodeCount];
    mail = new long[nodeCount];
  }

  /** The stamp of a write by event {@code event} (a stream index). */
  static long of(int event, WriteOrigin origin) {
    return ((event + 1L) << 1) | (origin == WriteOrigin.TRAINING ? 1 : 0);
  }

  /** The same write's stamp as a replay of it. */
  static long asReplay(long stamp) {
    return stamp & ~1L;
  }

  /** Stamps the rows of {@code write}. */
  void record(MemoryWrite write, WriteOrigin origin) {
    stamp(memory, write.memoryNodes(), write.memoryEvents(), origin);
    stamp(mail, write.mailNodes(), write.mailEvents(), origin);
  }

  private static void stamp(long[] stamps, int[] nodes, int[] events, WriteOrigin origin) {
    for (int i = 0; i < nodes.length; i++) {
      stamps[nodes[i]] = Math.max(stamps[nodes[i]], of(events[i], origin));
    }
  }

  long memory(int node) {
    return memory[node];
  }

  long mail(int node) {
    return mail[node];
  }

  void set(int node, long memoryStamp, long mailStamp) {
    memory[node] = memoryStamp;
    mail[node] = mailStamp;
  }

  /** Whether the row of {@code node} was written (memory or mail) since the last merge. */
  boolean written(int node) {
    return memory[node] != 0 || mail[node] != 0;
  }

  /** The nodes written since the last merge, ascending. */
  int[] writtenNodes() {
    int count = 0;
    for (int v = 0; v < memory.length; v++) {
      count += written(v) ? 1 : 0;
    }
    int[] out = new int[count];
    for (int v = 0, k = 0; v < memory.length; v++) {
      if (written(v)) {
        out[k++] = v;
      }
    }
    return out;
  }

  void clear() {
    Arrays.fill(memory, 0);
    Arrays.fill(mail, 0);
  }
}
