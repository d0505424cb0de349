package dev.depbloom.partition;

/**
 * The last step of {@link TopologyPartitioner}: moves events out of chains above their share until
 * every chain holds exactly its share of the window, {@code events / P} (the first {@code events
 * mod P} chains one more). Node-level partitioning balances only to a node's weight (within {@link
 * TopologyPartitioner#SLACK}); but a chain's last large batch in a window is cut short by any
 * excess, and then the whole schedule pays a round for it, every window. With equal chains and a
 * window that is a multiple of {@code P k B}, every round of a window is full.
 *
 * <p>Which events move: scanning from the window's end backwards, first events of a full chain
 * whose destination's part is short (the event already crosses there), then any event of a full
 * chain, to the chain shortest of its share (ties: lower index). Late events go first: a chain's
 * own writes to a node are lost only to its later events, and a moved late event has few.
 * Deterministic; time O(window * P) at worst.
 */
final class ExactBalance {
  private ExactBalance() {}

  /**
   * Equalises {@code eventChain} ({@code [window]}, chain of every event) in place; {@code
   * nodePart} is the chain of every local node; returns the number of events moved.
   */
  static int equalize(WindowGraph graph, int[] nodePart, int[] eventChain, int chains) {
    int n = eventChain.length;
    int[] count = new int[chains];
    for (int c : eventChain) {
      count[c]++;
    }
    int[] share = new int[chains];
    for (int p = 0; p < chains; p++) {
      share[p] = n / chains + (p < n % chains ? 1 : 0);
    }
    int moved = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = n - 1; i >= 0; i--) {
        int c = eventChain[i];
        if (count[c] <= share[c]) {
          continue;
        }
        int d = pass == 0 ? nodePart[graph.eventDestination[i]] : mostShort(count, share);
        if (count[d] >= share[d]) {
          continue; // d == c lands here too
        }
        eventChain[i] = d;
        count[c]--;
        count[d]++;
        moved++;
      }
    }
    return moved;
  }

  /** The chain furthest below its share (ties: lower index). */
  private static int mostShort(int[] count, int[] share) {
    int best = 0;
    for (int p = 1; p < count.length; p++) {
      if (share[p] - count[p] > share[best] - count[best]) {
        best = p;
      }
    }
    return best;
  }
}
