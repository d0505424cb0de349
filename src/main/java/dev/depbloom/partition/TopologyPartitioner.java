package dev.depbloom.partition;

import dev.depbloom.data.EventStream;

/**
 * The topology-aware partitioner: balanced by event count, minimising events between chains. It
 * partitions the window's nodes, then lets every event follow its <b>source</b>'s part; node owners
 * then follow by {@link WindowPartition}'s majority rule like for every partitioner (a node's owner
 * is its own part unless most of its events come from sources in another part).
 *
 * <ol>
 *   <li>Streaming pass: Linear Deterministic Greedy (Stanton and Kliot, KDD 2012) over the window's
 *       nodes in order of first appearance, a node weighing the events it is the source of.
 *   <li>Refinement: up to {@link #REFINEMENT_ROUNDS} rounds of balance-constrained label
 *       propagation (each node moves to the part it shares most events with).
 *   <li>Exact balance ({@link ExactBalance}): events move out of chains above their share, latest
 *       first, until every chain holds {@code events / P} (to one event).
 * </ol>
 *
 * The first two respect the capacity {@code (1 + SLACK) * events / P} per part, except that a node
 * heavier than the room left anywhere goes to the lightest part; the third moves at most that
 * excess. Deterministic: no randomness, fixed orders and tie rules. Time O(window * (P + rounds)).
 */
public final class TopologyPartitioner implements Partitioner {
  /** Allowed excess of a part's node weight over the mean before exact balancing: 5%. */
  public static final double SLACK = 0.05;

  /** Rounds of label propagation at most. */
  public static final int REFINEMENT_ROUNDS = 8;

  @Override
  public WindowPartition partition(EventStream events, int from, int to, int chains) {
    Partitioner.checkWindow(events, from, to, chains);
    WindowGraph graph = WindowGraph.of(events, from, to);
    double capacity = Math.max(1, (1 + SLACK) * graph.totalWeight / chains);
    long[] load = new long[chains];
    int[] part = LinearDeterministicGreedy.assign(graph, chains, capacity, load);
    LabelPropagationRefinement.refine(graph, part, load, capacity, REFINEMENT_ROUNDS);
    int[] eventChain = new int[to - from];
    for (int i = 0; i < eventChain.length; i++) {
      eventChain[i] = part[graph.eventSource[i]];
    }
    ExactBalance.equalize(graph, part, eventChain, chains);
    return WindowPartition.ofEventChains(events, from, to, chains, eventChain);
  }

  @Override
  public String name() {
    return "topology";
  }
}
