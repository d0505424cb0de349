package dev.depbloom.partition;

import java.util.Arrays;

/**
 * The streaming pass of {@link TopologyPartitioner}: Linear Deterministic Greedy (Stanton and
 * Kliot, "Streaming Graph Partitioning for Large Distributed Graphs", KDD 2012), with node weights.
 * Nodes arrive in order of first appearance in the window; node v goes to the part {@code i} that
 * maximises {@code links(v, i) * (1 - load(i) / capacity)}, where {@code links} counts v's window
 * events with nodes already in part i and {@code load} is the part's node weight. Only parts that
 * stay within the capacity are candidates (all parts when none does); ties go to the lighter part,
 * then the lower index, so a node without placed neighbors goes to the lightest part.
 */
final class LinearDeterministicGreedy {
  private LinearDeterministicGreedy() {}

  /** Part of every local node; {@code load} (size {@code parts}) receives the part weights. */
  static int[] assign(WindowGraph graph, int parts, double capacity, long[] load) {
    int n = graph.nodeCount();
    int[] part = new int[n];
    Arrays.fill(part, -1);
    Arrays.fill(load, 0);
    int[] links = new int[parts];
    for (int v = 0; v < n; v++) {
      graph.linksByPart(v, part, links);
      int best = choose(links, load, graph.weight[v], capacity);
      part[v] = best;
      load[best] += graph.weight[v];
    }
    return part;
  }

  private static int choose(int[] links, long[] load, int weight, double capacity) {
    boolean anyFits = false;
    for (long l : load) {
      anyFits |= l + weight <= capacity;
    }
    int best = -1;
    double bestScore = 0;
    for (int i = 0; i < links.length; i++) {
      if (anyFits && load[i] + weight > capacity) {
        continue;
      }
      double score = links[i] * (1 - load[i] / capacity);
      if (best < 0 || score > bestScore || (score == bestScore && load[i] < load[best])) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }
}
