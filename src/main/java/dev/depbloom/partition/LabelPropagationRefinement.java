package dev.depbloom.partition;

/**
 * The refinement of {@link TopologyPartitioner}: balance-constrained label propagation (the
 * refinement of e.g. Meyerhenke, Sanders and Schulz, "Partitioning Complex Networks via
 * Size-Constrained Clustering", SEA 2014, reduced to its core). In every round each node, in order
 * of first appearance, moves to the part it shares the most window events with, when that part
 * shares strictly more than its current part and stays within the capacity after the move (ties:
 * lower index). Rounds stop after {@code maxRounds} or when no node moves. Each move lowers the
 * number of cut adjacency entries, so the rounds terminate.
 */
final class LabelPropagationRefinement {
  private LabelPropagationRefinement() {}

  /** Refines {@code part} and {@code load} in place; returns the number of rounds run. */
  static int refine(WindowGraph graph, int[] part, long[] load, double capacity, int maxRounds) {
    int[] links = new int[load.length];
    for (int round = 1; round <= maxRounds; round++) {
      int moves = 0;
      for (int v = 0; v < graph.nodeCount(); v++) {
        graph.linksByPart(v, part, links);
        int current = part[v];
        int best = current;
        int w = graph.weight[v];
        for (int i = 0; i < links.length; i++) {
          if (links[i] > links[best] && load[i] + w <= capacity) {
            best = i;
          }
        }
        if (best != current) {
          load[current] -= w;
          load[best] += w;
          part[v] = best;
          moves++;
        }
      }
      if (moves == 0) {
        return round;
      }
    }
    return maxRounds;
  }
}
