package dev.depbloom.data.load;

import dev.depbloom.data.NodeIdMap;
import java.util.Arrays;

/**
 * Original node ids to dense ids by rank. When the ids span a range not much larger than the event
 * count (the usual case) the lookup is a direct table; otherwise a binary search of the sorted
 * distinct ids.
 */
final class DenseIdRemap {
  private final NodeIdMap nodeIds;
  private final int[] table; // [maxId - minId + 1] dense id by (original - minId), or null
  private final long minId;

  private DenseIdRemap(NodeIdMap nodeIds, int[] table, long minId) {
    this.nodeIds = nodeIds;
    this.table = table;
    this.minId = minId;
  }

  /** The remap over the ids in {@code src[0..size)} and {@code dst[0..size)}. */
  static DenseIdRemap of(long[] src, long[] dst, int size) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < size; i++) {
      min = Math.min(min, Math.min(src[i], dst[i]));
      max = Math.max(max, Math.max(src[i], dst[i]));
    }
    long span = max - min + 1;
    if (span > 0 && span <= Math.max(1L << 22, 4L * size)) {
      return withTable(src, dst, size, min, (int) span);
    }
    long[] distinct = distinct(Arrays.copyOf(src, size), Arrays.copyOf(dst, size));
    return new DenseIdRemap(NodeIdMap.ofDistinct(distinct), null, 0);
  }

  private static DenseIdRemap withTable(long[] src, long[] dst, int size, long min, int span) {
    int[] table = new int[span];
    for (int i = 0; i < size; i++) {
      table[(int) (src[i] - min)] = 1;
      table[(int) (dst[i] - min)] = 1;
    }
    int n = 0;
    for (int k = 0; k < span; k++) {
      n += table[k];
    }
    long[] distinct = new long[n];
    int rank = 0;
    for (int k = 0; k < span; k++) {
      if (table[k] == 1) {
        distinct[rank] = min + k;
        table[k] = rank++;
      } else {
        table[k] = -1;
      }
    }
    return new DenseIdRemap(NodeIdMap.ofDistinct(distinct), table, min);
  }

  /** Sorted distinct values of both arrays (which are sorted in place). */
  private static long[] distinct(long[] a, long[] b) {
    Arrays.sort(a);
    Arrays.sort(b);
    long[] out = new long[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      long next = j == b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
      if (n == 0 || out[n - 1] != next) {
        out[n++] = next;
      }
    }
    return Arrays.copyOf(out, n);
  }

  NodeIdMap nodeIds() {
    return nodeIds;
  }

  int denseId(long originalId) {
    return table != null ? table[(int) (originalId - minId)] : nodeIds.denseId(originalId);
  }
}
