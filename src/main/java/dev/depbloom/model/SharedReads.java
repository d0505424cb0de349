package dev.depbloom.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The memory reads of several plans over the same memory (the slices of one test batch),
 * deduplicated across them: every (node, read time) any plan reads is one row of {@link #reads()},
 * so one memory update serves all plans; plan {@code i}'s own unique reads are rows {@link
 * #rows(int)} of it. The negatives of a test batch are mostly the same few nodes, whose sampled
 * neighbors are read at the same edge times from slice to slice, so the union is much smaller than
 * the sum.
 */
public final class SharedReads {
  private final ReadPlan reads;
  private final List<int[]> rows;

  private SharedReads(ReadPlan reads, List<int[]> rows) {
    this.reads = reads;
    this.rows = rows;
  }

  /**
   * Shares the reads of {@code plans}, which must all read memory. The union's rows are grouped by
   * node (nodes in order of first appearance, each node's reads in order of first appearance), so
   * that contiguous {@link #part}s share few distinct nodes: the per-node terms of a memory update
   * (the projections of memory and mail) are then computed about once per node, not once per part
   * that reads the node (a test batch's negatives are a few nodes read in every slice).
   */
  public static SharedReads of(List<BatchGraph> plans) {
    int expected = 0;
    for (BatchGraph g : plans) {
      expected += g.reads().readCount();
    }
    DenseIndex union = new DenseIndex(Math.max(1, expected));
    List<int[]> rows = new ArrayList<>(plans.size());
    for (BatchGraph g : plans) {
      ReadPlan p = g.reads();
      int[] row = new int[p.readCount()]; // [U_plan] row of each of the plan's reads in the union
      for (int u = 0; u < row.length; u++) {
        row[u] = union.indexOf(p.readNode()[u], p.readTime()[u]);
      }
      rows.add(row);
    }
    int[] firstNode = union.keys(); // by first appearance
    double[] firstTime = union.values();
    int n = firstNode.length;
    DenseIndex distinct = new DenseIndex(Math.max(1, n));
    int[] distinctOf = new int[n];
    for (int u = 0; u < n; u++) {
      distinctOf[u] = distinct.indexOf(firstNode[u]);
    }
    // counting sort by distinct node, stable: row u of the union moves to position[u]
    int[] start = new int[distinct.size() + 1];
    for (int u = 0; u < n; u++) {
      start[distinctOf[u] + 1]++;
    }
    for (int d = 0; d < distinct.size(); d++) {
      start[d + 1] += start[d];
    }
    int[] position = new int[n];
    int[] readNode = new int[n];
    double[] readTime = new double[n];
    int[] readDistinct = new int[n];
    for (int u = 0; u < n; u++) {
      int to = start[distinctOf[u]]++;
      position[u] = to;
      readNode[to] = firstNode[u];
      readTime[to] = firstTime[u];
      readDistinct[to] = distinctOf[u];
    }
    for (int[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        row[i] = position[row[i]];
      }
    }
    ReadPlan shared = new ReadPlan(new int[0], readNode, readTime, readDistinct, distinct.keys());
    return new SharedReads(shared, List.copyOf(rows));
  }

  /** The union of the plans' reads, {@code [U]}; its positions are empty. */
  public ReadPlan reads() {
    return reads;
  }

  /**
   * Rows {@code [from, to)} of {@link #reads()} as a read plan of their own (its distinct nodes
   * those of these rows), so that the shared memory update can be computed in parts, in parallel,
   * and concatenated in row order.
   */
  public ReadPlan part(int from, int to) {
    int n = to - from;
    int[] node = java.util.Arrays.copyOfRange(reads.readNode(), from, to);
    DenseIndex distinct = new DenseIndex(Math.max(1, n));
    int[] readDistinct = new int[n];
    for (int u = 0; u < n; u++) {
      readDistinct[u] = distinct.indexOf(node[u]);
    }
    return new ReadPlan(
        new int[0],
        node,
        java.util.Arrays.copyOfRange(reads.readTime(), from, to),
        readDistinct,
        distinct.keys());
  }

  /** {@code [U_i]}: the row of {@link #reads()} of each unique read of plan {@code i}. */
  public int[] rows(int plan) {
    return rows.get(plan);
  }
}
