package dev.depbloom.api;

import dev.depbloom.data.NodeIdMap;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The node ids of a served stream: the run's data's ({@link NodeIdMap}, dense ids {@code 0..N-1}),
 * then the ids observed events add, dense ids {@code N, N+1, ...} in order of first appearance, at
 * most {@code limit} of them. Dense id {@code N + limit} is never given out: it is the blank row an
 * unknown id reads (fresh memory, no neighbors, zero features, as a new node).
 *
 * <p>Ids added by the writer are pending until {@link #publish()}; readers look up published ids
 * only. Threads: one writer; it publishes under the serving lock, and readers look up under it.
 */
final class NodeIds {
  private final NodeIdMap base;
  private final int limit;
  private final Map<Long, Integer> added = new HashMap<>(); // published
  private final Map<Long, Integer> pending = new HashMap<>();
  private long[] addedIds = new long[64]; // by dense id - N, pending included
  private int addedCount; // pending included
  private int publishedCount;

  NodeIds(NodeIdMap base, int limit) {
    this.base = base;
    this.limit = limit;
  }

  /** Dense ids in use or reserved: the run's nodes, the new ones allowed, and the blank row. */
  int capacity() {
    return base.size() + limit + 1;
  }

  /** The dense id unknown nodes read. */
  int blank() {
    return base.size() + limit;
  }

  int limit() {
    return limit;
  }

  /** The run's nodes. */
  int baseCount() {
    return base.size();
  }

  /** Nodes added by observed events and published. */
  int addedCount() {
    return publishedCount;
  }

  /** The dense id of a published id, or the blank row for an unknown one. */
  int denseOrBlank(long id) {
    int d = base.denseId(id);
    if (d >= 0) {
      return d;
    }
    Integer a = added.get(id);
    return a != null ? a : blank();
  }

  /** The dense id of {@code id}, given a new one (pending) if unknown; -1 beyond the limit. */
  int denseOrAdd(long id) {
    int d = base.denseId(id);
    if (d >= 0) {
      return d;
    }
    Integer a = added.get(id);
    if (a == null) {
      a = pending.get(id);
    }
    if (a != null) {
      return a;
    }
    if (addedCount == limit) {
      return -1;
    }
    if (addedCount == addedIds.length) {
      addedIds = Arrays.copyOf(addedIds, 2 * addedCount);
    }
    addedIds[addedCount] = id;
    int dense = base.size() + addedCount++;
    pending.put(id, dense);
    return dense;
  }

  /** The added ids, published, in dense order (snapshots). */
  long[] addedIds() {
    return Arrays.copyOf(addedIds, publishedCount);
  }

  void publish() {
    added.putAll(pending);
    pending.clear();
    publishedCount = addedCount;
  }

  void discardPending() {
    pending.clear();
    addedCount = publishedCount;
  }
}
