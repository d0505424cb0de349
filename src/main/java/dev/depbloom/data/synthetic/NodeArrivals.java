package dev.depbloom.data.synthetic;

import dev.depbloom.data.RandomStreams;
import java.util.SplittableRandom;

/**
 * When each node first appears. The arriving nodes (all nodes, or the users of a bipartite graph)
 * are put in a random order, and position {@code k} falls due at event {@code k * E / A}; a node
 * that has already appeared in an event by then is skipped, otherwise that event introduces it. So
 * with {@code E >= A} every node appears by the end of the stream, and new nodes keep appearing
 * throughout it (as in real data, and as inductive evaluation needs).
 */
final class NodeArrivals {
  private final int[] order; // [A], arriving nodes in arrival order
  private final boolean[] seen; // [N]
  private final long events;
  private int cursor;

  NodeArrivals(SyntheticGraphConfig config) {
    int arriving = config.bipartite() ? config.sourceNodes() : config.nodes();
    this.order = new int[arriving];
    for (int k = 0; k < arriving; k++) {
      order[k] = k;
    }
    SplittableRandom random =
        RandomStreams.stream(config.seed(), RandomStreams.key("synthetic.arrivals"));
    for (int k = arriving - 1; k > 0; k--) {
      int j = random.nextInt(k + 1);
      int swap = order[k];
      order[k] = order[j];
      order[j] = swap;
    }
    this.seen = new boolean[config.nodes()];
    this.events = Math.max(1, config.events());
  }

  /** The node event {@code i} introduces, or -1 when none is due that has not appeared yet. */
  int arrivalAt(int i) {
    long due = Math.min(order.length, (i + 1L) * order.length / events);
    while (cursor < due && seen[order[cursor]]) {
      cursor++;
    }
    return cursor < due ? order[cursor++] : -1;
  }

  /** Records that {@code v} has appeared in an event. */
  void see(int v) {
    seen[v] = true;
  }
}
