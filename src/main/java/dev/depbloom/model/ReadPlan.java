package dev.depbloom.model;

/**
 * Which memory a batch reads, deduplicated: every position of the level table that needs memory
 * maps to a unique read (node, read time); every unique read maps to a distinct node. Nodes read at
 * the same time get the same updated memory, so it is computed once.
 *
 * @param positionRead {@code [P]} unique read of each position that reads memory
 * @param readNode {@code [U]} node id of each unique read
 * @param readTime {@code [U]} read time of each unique read
 * @param readDistinct {@code [U]} index into {@code distinctNodes} of each unique read
 * @param distinctNodes {@code [D]} node ids
 */
public record ReadPlan(
    int[] positionRead,
    int[] readNode,
    double[] readTime,
    int[] readDistinct,
    int[] distinctNodes) {

  /** Plans the reads of positions {@code [0, count)} of a level table. */
  static ReadPlan of(int[] nodes, double[] times, int count) {
    DenseIndex reads = new DenseIndex(count);
    int[] positionRead = new int[count];
    for (int p = 0; p < count; p++) {
      positionRead[p] = reads.indexOf(nodes[p], times[p]);
    }
    int[] readNode = reads.keys();
    DenseIndex distinct = new DenseIndex(readNode.length);
    int[] readDistinct = new int[readNode.length];
    for (int u = 0; u < readNode.length; u++) {
      readDistinct[u] = distinct.indexOf(readNode[u]);
    }
    return new ReadPlan(positionRead, readNode, reads.values(), readDistinct, distinct.keys());
  }

  public int readCount() {
    return readNode.length;
  }
}
