package dev.depbloom.partition;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * The sub-chains of one temporal window {@code [from, to)}: the chain of every event, the owner
 * chain of every node active in the window, and the counts a schedule and a profile need.
 *
 * <p><b>Owner rule</b> (one rule for every partitioner): partitioners assign events; a node's owner
 * is the chain that holds most of the window's events touching it (an event counts once per
 * endpoint slot, so a self-loop counts twice for its node); ties go to the lowest chain. Under
 * DepBloom's read rule a chain reads the rows of the nodes it owns as its own events write them, so
 * the owner should be the chain that reads the node most; the majority is that chain when a node's
 * events are not interleaved across chains.
 *
 * <p>Invariants: {@code chainOf(e)} is in {@code [0, chains)} for every event of the window; every
 * node touched by an event of the window has exactly one owner in {@code [0, chains)}, every other
 * node none ({@code -1}); {@code eventsPerChain} sums to the window's event count; an event is
 * cross-chain when its two endpoints have different owners, so {@code chains = 1} gives none.
 *
 * <p>Arrays returned by accessors are shared, not copied: callers must not modify them.
 */
public final class WindowPartition {
  private final int from;
  private final int to;
  private final int chains;
  private final int[] eventChain; // [to - from] chain of event from + i
  private final int[] nodeOwner; // [N] owner chain, -1 for nodes not in the window
  private final int[] eventsPerChain; // [chains]
  private final int crossChainEvents;

  private WindowPartition(
      int from,
      int to,
      int chains,
      int[] eventChain,
      int[] nodeOwner,
      int[] eventsPerChain,
      int crossChainEvents) {
    this.from = from;
    this.to = to;
    this.chains = chains;
    this.eventChain = eventChain;
    this.nodeOwner = nodeOwner;
    this.eventsPerChain = eventsPerChain;
    this.crossChainEvents = crossChainEvents;
  }

  /**
   * The partition given the chain of every event of {@code [from, to)}; owners and counts follow by
   * the owner rule. Takes ownership of {@code eventChain}.
   *
   * @throws IllegalArgumentException when an event's chain is outside {@code [0, chains)} or the
   *     array does not have one entry per event of the window
   */
  public static WindowPartition ofEventChains(
      EventStream events, int from, int to, int chains, int[] eventChain) {
    Partitioner.checkWindow(events, from, to, chains);
    if (eventChain.length != to - from) {
      throw new IllegalArgumentException(
          eventChain.length + " event chains for a window of " + (to - from) + " events");
    }
    int[] perChain = new int[chains];
    for (int i = 0; i < eventChain.length; i++) {
      if (eventChain[i] < 0 || eventChain[i] >= chains) {
        throw new IllegalArgumentException(
            "event " + (from + i) + " has chain " + eventChain[i] + ", outside 0.." + (chains - 1));
      }
      perChain[eventChain[i]]++;
    }
    int[] owner = MajorityOwners.of(events, from, to, chains, eventChain);
    int cross = countCrossChain(events, from, to, owner);
    return new WindowPartition(from, to, chains, eventChain, owner, perChain, cross);
  }

  private static int countCrossChain(EventStream events, int from, int to, int[] nodeOwner) {
    int[] src = events.sources();
    int[] dst = events.destinations();
    int cross = 0;
    for (int e = from; e < to; e++) {
      if (nodeOwner[src[e]] != nodeOwner[dst[e]]) {
        cross++;
      }
    }
    return cross;
  }

  /** First event of the window. */
  public int from() {
    return from;
  }

  /** End of the window (exclusive). */
  public int to() {
    return to;
  }

  public int chains() {
    return chains;
  }

  public int eventCount() {
    return to - from;
  }

  /** Chain of event {@code event} (a stream index in {@code [from, to)}). */
  public int chainOf(int event) {
    if (event < from || event >= to) {
      throw new IndexOutOfBoundsException(
          "event " + event + " is outside the window [" + from + ", " + to + ")");
    }
    return eventChain[event - from];
  }

  /** Chain of every event of the window: entry {@code i} is event {@code from + i}. */
  public int[] eventChains() {
    return eventChain;
  }

  /** Owner chain of {@code node}, or -1 when no event of the window touches it. */
  public int ownerOf(int node) {
    return nodeOwner[node];
  }

  /** Owner of every node of the stream, -1 for nodes not in the window: {@code [nodeCount]}. */
  public int[] nodeOwners() {
    return nodeOwner;
  }

  /** Nodes touched by the window's events, ascending. */
  public int[] activeNodes() {
    int[] out = new int[nodeOwner.length];
    int k = 0;
    for (int v = 0; v < nodeOwner.length; v++) {
      if (nodeOwner[v] >= 0) {
        out[k++] = v;
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** The window's events of every chain, each chain's in stream order (fresh arrays). */
  public int[][] chainEvents() {
    int[][] out = new int[chains][];
    for (int c = 0; c < chains; c++) {
      out[c] = new int[eventsPerChain[c]];
    }
    int[] filled = new int[chains];
    for (int e = from; e < to; e++) {
      int c = eventChain[e - from];
      out[c][filled[c]++] = e;
    }
    return out;
  }

  /** Events of every chain: {@code [chains]}, summing to {@link #eventCount()}. */
  public int[] eventsPerChain() {
    return eventsPerChain;
  }

  /** Events whose endpoints have different owners. */
  public int crossChainEvents() {
    return crossChainEvents;
  }

  /** Events of the largest chain. */
  public int largestChainEvents() {
    return Arrays.stream(eventsPerChain).max().orElse(0);
  }

  /** Largest chain over the mean chain: 1 is perfect balance, {@code P} all events in one chain. */
  public double balance() {
    return largestChainEvents() * (double) chains / eventCount();
  }
}
