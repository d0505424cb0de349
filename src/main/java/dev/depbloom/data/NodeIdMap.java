package dev.depbloom.data;

import java.util.Arrays;

/**
 * The mapping between a file's node ids and the dense ids {@code 0..N-1} used everywhere else.
 * Dense id = rank of the original id among the distinct ids, so files whose ids already are {@code
 * 0..N-1} map to themselves.
 */
public final class NodeIdMap {
  private final long[] originalIds; // [N], strictly increasing

  private NodeIdMap(long[] originalIds) {
    this.originalIds = originalIds;
  }

  /** The map over the distinct values of {@code ids} (any order, repeats allowed). */
  public static NodeIdMap ofDistinct(long[] ids) {
    long[] sorted = ids.clone();
    Arrays.sort(sorted);
    int n = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[n++] = sorted[i];
      }
    }
    return new NodeIdMap(Arrays.copyOf(sorted, n));
  }

  /** The identity map over {@code 0..n-1}. */
  public static NodeIdMap identity(int n) {
    long[] ids = new long[n];
    Arrays.setAll(ids, i -> i);
    return new NodeIdMap(ids);
  }

  public int size() {
    return originalIds.length;
  }

  public long originalId(int denseId) {
    return originalIds[denseId];
  }

  /** The dense id of an original id, or -1 if the id is not in the map. */
  public int denseId(long originalId) {
    int i = Arrays.binarySearch(originalIds, originalId);
    return i >= 0 ? i : -1;
  }

  /** True when dense and original ids coincide. */
  public boolean isIdentity() {
    int n = originalIds.length;
    return n == 0 || (originalIds[0] == 0 && originalIds[n - 1] == n - 1);
  }

  /** Original ids by dense id; callers must not modify the array. */
  public long[] originalIds() {
    return originalIds;
  }
}
