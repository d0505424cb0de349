package dev.depbloom.partition;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * The static graph of one window's events, over local node ids {@code 0..nodeCount-1} numbered in
 * order of first appearance (source before destination). Every event {@code (u, v)} with {@code u
 * != v} puts v in u's adjacency row and u in v's, once per event, so repeated interactions weigh
 * more; self-loops add no adjacency. A node's weight is the number of window events it is the
 * source of: the events that follow it under {@link TopologyPartitioner}'s endpoint rule.
 */
final class WindowGraph {
  final int[] nodes; // [n] global id of every local id
  final int[] weight; // [n] events with this node as source
  final int[] offsets; // [n + 1] adjacency rows
  final int[] adjacency; // [offsets[n]] local ids
  final int[] eventSource; // [window] local id of every event's source
  final int[] eventDestination; // [window] local id of every event's destination
  final long totalWeight; // = window events

  private WindowGraph(
      int[] nodes,
      int[] weight,
      int[] offsets,
      int[] adjacency,
      int[] eventSource,
      int[] eventDestination) {
    this.nodes = nodes;
    this.weight = weight;
    this.offsets = offsets;
    this.adjacency = adjacency;
    this.eventSource = eventSource;
    this.eventDestination = eventDestination;
    this.totalWeight = eventSource.length;
  }

  static WindowGraph of(EventStream events, int from, int to) {
    int[] src = events.sources();
    int[] dst = events.destinations();
    int[] local = new int[events.nodeCount()];
    Arrays.fill(local, -1);
    int[] nodes = new int[2 * (to - from)];
    int n = 0;
    for (int e = from; e < to; e++) {
      n = number(local, nodes, n, src[e]);
      n = number(local, nodes, n, dst[e]);
    }
    int[] weight = new int[n];
    int[] eventSource = new int[to - from];
    int[] eventDestination = new int[to - from];
    int[] offsets = new int[n + 1];
    for (int e = from; e < to; e++) {
      int u = local[src[e]];
      int v = local[dst[e]];
      weight[u]++;
      eventSource[e - from] = u;
      eventDestination[e - from] = v;
      if (u != v) {
        offsets[u + 1]++;
        offsets[v + 1]++;
      }
    }
    for (int i = 0; i < n; i++) {
      offsets[i + 1] += offsets[i];
    }
    int[] adjacency = new int[offsets[n]];
    int[] fill = Arrays.copyOf(offsets, n);
    for (int e = from; e < to; e++) {
      if (src[e] != dst[e]) {
        int u = local[src[e]];
        int v = local[dst[e]];
        adjacency[fill[u]++] = v;
        adjacency[fill[v]++] = u;
      }
    }
    return new WindowGraph(
        Arrays.copyOf(nodes, n), weight, offsets, adjacency, eventSource, eventDestination);
  }

  private static int number(int[] local, int[] nodes, int n, int v) {
    if (local[v] >= 0) {
      return n;
    }
    local[v] = n;
    nodes[n] = v;
    return n + 1;
  }

  int nodeCount() {
    return nodes.length;
  }

  /**
   * Adds, for every neighbor of {@code v} with a part ({@code part[u] >= 0}), one to {@code
   * links[part[u]]}: the number of v's window events shared with each part.
   */
  void linksByPart(int v, int[] part, int[] links) {
    Arrays.fill(links, 0);
    for (int i = offsets[v]; i < offsets[v + 1]; i++) {
      int p = part[adjacency[i]];
      if (p >= 0) {
        links[p]++;
      }
    }
  }
}
