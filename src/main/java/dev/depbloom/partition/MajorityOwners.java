package dev.depbloom.partition;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * The owner rule of {@link WindowPartition}: a node's owner is the chain holding most of its window
 * events (one count per endpoint slot), ties to the lowest chain. Time O(window * chains), space
 * O(nodeCount + active nodes * chains).
 */
final class MajorityOwners {
  private MajorityOwners() {}

  /** Owner of every node of the stream, -1 for nodes without an event in {@code [from, to)}. */
  static int[] of(EventStream events, int from, int to, int chains, int[] eventChain) {
    int[] src = events.sources();
    int[] dst = events.destinations();
    int[] owner = new int[events.nodeCount()];
    Arrays.fill(owner, -1);
    // First the owner array holds each active node's local id, then its owner.
    int[] nodes = new int[2 * (to - from)]; // [active] node of every local id
    int active = 0;
    for (int e = from; e < to; e++) {
      active = assignLocalId(owner, nodes, active, src[e]);
      active = assignLocalId(owner, nodes, active, dst[e]);
    }
    int[] counts = new int[active * chains]; // [active, chains] endpoint slots per chain
    for (int e = from; e < to; e++) {
      int c = eventChain[e - from];
      counts[owner[src[e]] * chains + c]++;
      counts[owner[dst[e]] * chains + c]++;
    }
    for (int local = 0; local < active; local++) {
      owner[nodes[local]] = argmax(counts, local * chains, chains);
    }
    return owner;
  }

  private static int assignLocalId(int[] owner, int[] nodes, int active, int v) {
    if (owner[v] >= 0) {
      return active;
    }
    owner[v] = active;
    nodes[active] = v;
    return active + 1;
  }

  /** Index (relative to {@code at}) of the first largest of {@code counts[at, at + n)}. */
  private static int argmax(int[] counts, int at, int n) {
    int best = 0;
    for (int c = 1; c < n; c++) {
      if (counts[at + c] > counts[at + best]) {
        best = c;
      }
    }
    return best;
  }
}
