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

  /** Shares the reads of {@code plans}, which must all read memory. */
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
    int[] readNode = union.keys();
    DenseIndex distinct = new DenseIndex(Math.max(1, readNode.length));
    int[] readDistinct = new int[readNode.length];
    for (int u = 0; u < readNode.length; u++) {
      readDistinct[u] = distinct.indexOf(readNode[u]);
    }
    ReadPlan shared =
        new ReadPlan(new int[0], readNode, union.values(), readDistinct, distinct.keys());
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
