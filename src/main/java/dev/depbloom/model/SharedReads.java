package dev.depbloom.model;

import java.util.ArrayList;
import java.util.Arrays;
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
    // one loop per method: the JIT compiles each small and once; as one method of many loops, C2
    // compiled it eight times in a JODIE run (0.74 s of compile time, 0.4 s of it during the test)
    int expected = 0;
    for (BatchGraph g : plans) {
      expected += g.reads().readCount();
    }
    DenseIndex union = new DenseIndex(Math.max(1, expected));
    List<int[]> rows = new ArrayList<>(plans.size());
    for (BatchGraph g : plans) {
      rows.add(unionRows(g.reads(), union)); // [U_plan] row of each of the plan's reads
    }
    int[] firstNode = union.keys(); // by first appearance
    DenseIndex distinct = new DenseIndex(Math.max(1, firstNode.length));
    int[] distinctOf = denseIndices(firstNode, distinct);
    int[] position = groupedPositions(distinctOf, distinct.size());
    int n = firstNode.length;
    int[] readNode = new int[n];
    double[] readTime = new double[n];
    int[] readDistinct = new int[n];
    scatter(firstNode, position, readNode);
    scatter(union.values(), position, readTime);
    scatter(distinctOf, position, readDistinct);
    for (int[] row : rows) {
      remap(row, position);
    }
    ReadPlan shared = new ReadPlan(new int[0], readNode, readTime, readDistinct, distinct.keys());
    return new SharedReads(shared, List.copyOf(rows));
  }

  /** The row in {@code union} of each of {@code p}'s reads (added to it if new). */
  private static int[] unionRows(ReadPlan p, DenseIndex union) {
    int[] node = p.readNode();
    double[] time = p.readTime();
    int[] row = new int[p.readCount()];
    for (int u = 0; u < row.length; u++) {
      row[u] = union.indexOf(node[u], time[u]);
    }
    return row;
  }

  /** The dense index in {@code index} of each of {@code keys} (added to it if new). */
  private static int[] denseIndices(int[] keys, DenseIndex index) {
    int[] out = new int[keys.length];
    for (int u = 0; u < keys.length; u++) {
      out[u] = index.indexOf(keys[u]);
    }
    return out;
  }

  /**
   * A stable counting sort by group: the position of each element once the elements are grouped by
   * {@code group} (groups in index order, each group's elements in their order).
   */
  private static int[] groupedPositions(int[] group, int groups) {
    int[] start = new int[groups + 1];
    for (int g : group) {
      start[g + 1]++;
    }
    for (int d = 0; d < groups; d++) {
      start[d + 1] += start[d];
    }
    int[] position = new int[group.length];
    for (int u = 0; u < group.length; u++) {
      position[u] = start[group[u]]++;
    }
    return position;
  }

  /** {@code out[position[u]] = in[u]}. */
  private static void scatter(int[] in, int[] position, int[] out) {
    for (int u = 0; u < in.length; u++) {
      out[position[u]] = in[u];
    }
  }

  /** {@code out[position[u]] = in[u]}. */
  private static void scatter(double[] in, int[] position, double[] out) {
    for (int u = 0; u < in.length; u++) {
      out[position[u]] = in[u];
    }
  }

  /** {@code row[i] = position[row[i]]}, in place. */
  private static void remap(int[] row, int[] position) {
    for (int i = 0; i < row.length; i++) {
      row[i] = position[row[i]];
    }
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
    int[] node = Arrays.copyOfRange(reads.readNode(), from, to);
    DenseIndex distinct = new DenseIndex(Math.max(1, node.length));
    int[] readDistinct = denseIndices(node, distinct);
    return new ReadPlan(
        new int[0],
        node,
        Arrays.copyOfRange(reads.readTime(), from, to),
        readDistinct,
        distinct.keys());
  }

  /** {@code [U_i]}: the row of {@link #reads()} of each unique read of plan {@code i}. */
  public int[] rows(int plan) {
    return rows.get(plan);
  }
}
