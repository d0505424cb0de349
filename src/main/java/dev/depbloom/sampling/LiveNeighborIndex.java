package dev.depbloom.sampling;

import dev.depbloom.data.EventStream;
import java.util.Arrays;

/**
 * A temporal neighbor index that grows as events arrive (serving), with the rows of {@link
 * TemporalCsr}: per node, its incident events ordered by (time, edge id), a self-loop twice. Each
 * node's row is an array of its own with room to grow, so appending an event costs O(1) amortised
 * and never moves another node's row.
 *
 * <p>Appended events are <em>pending</em> until {@link #publish()}: {@link #pending()} shows them
 * (the writer samples a batch's own events, as the test pass's CSR shows them), {@link
 * #published()} does not (readers see whole batches only). {@link #discardPending()} drops them.
 *
 * <p>Invariants (checked on append): edge ids increase and each row's times never decrease, so a
 * row's published part is a prefix of it and samplers over either view sample exactly what a {@link
 * TemporalCsr} over the same events samples.
 *
 * <p>Threads: one writer appends, publishes and discards; it must publish while no reader runs (the
 * caller's write lock), which gives readers of {@link #published()} a happens-before edge to every
 * published entry. Readers may run while the writer appends: a row that grows is copied into a new
 * {@link Row} whose arrays are final fields, so a reader sees the old row or a complete copy.
 */
public final class LiveNeighborIndex {
  private static final int[] NO_INTS = new int[0];
  private static final double[] NO_TIMES = new double[0];
  private static final int FIRST_CAPACITY = 4;

  private final Row[] rows; // [capacity], null: no event yet
  private final int[] length; // [capacity] entries appended, pending included
  private final int[] published; // [capacity] entries readers see
  private int[] touched = new int[16]; // nodes with pending entries, in order of their first one
  private int touchedCount;
  private final boolean[] isTouched; // [capacity]
  private int lastEdgeId = -1;
  private int publishedLastEdgeId = -1;
  private final TemporalAdjacency pendingView = new View(true);
  private final TemporalAdjacency publishedView = new View(false);

  /** One node's row: its arrays are final, so a reader that sees the row sees their contents. */
  private static final class Row {
    final int[] neighbors;
    final int[] edgeIds;
    final double[] times;

    /** A row of {@code capacity} entries holding a copy of {@code old}'s (null: none). */
    Row(Row old, int capacity) {
      neighbors = old == null ? new int[capacity] : Arrays.copyOf(old.neighbors, capacity);
      edgeIds = old == null ? new int[capacity] : Arrays.copyOf(old.edgeIds, capacity);
      times = old == null ? new double[capacity] : Arrays.copyOf(old.times, capacity);
    }
  }

  /** An empty index for nodes {@code 0..nodeCapacity-1}. */
  public LiveNeighborIndex(int nodeCapacity) {
    this.rows = new Row[nodeCapacity];
    this.length = new int[nodeCapacity];
    this.published = new int[nodeCapacity];
    this.isTouched = new boolean[nodeCapacity];
  }

  /**
   * The index of the first {@code eventLimit} events of {@code events} (both directions),
   * published, each row sized to its events with room for a few more.
   */
  public static LiveNeighborIndex of(EventStream events, int eventLimit, int nodeCapacity) {
    if (nodeCapacity < events.nodeCount()) {
      throw new IllegalArgumentException(
          "node capacity " + nodeCapacity + " below the stream's " + events.nodeCount() + " nodes");
    }
    LiveNeighborIndex index = new LiveNeighborIndex(nodeCapacity);
    int[] src = events.sources();
    int[] dst = events.destinations();
    double[] time = events.times();
    int[] degree = new int[nodeCapacity];
    for (int i = 0; i < eventLimit; i++) {
      degree[src[i]]++;
      degree[dst[i]]++;
    }
    for (int v = 0; v < nodeCapacity; v++) {
      if (degree[v] > 0) {
        index.rows[v] = new Row(null, degree[v] + FIRST_CAPACITY);
      }
    }
    for (int i = 0; i < eventLimit; i++) {
      index.append(src[i], dst[i], time[i], i);
    }
    index.publish();
    return index;
  }

  /** Nodes the index has room for. */
  public int nodeCapacity() {
    return rows.length;
  }

  /**
   * Appends event {@code edgeId} {@code (src, dst, time)} in both directions, pending.
   *
   * @throws IllegalArgumentException if the edge id does not increase, a node is outside the
   *     capacity, or the time is before the latest event of an endpoint's row
   */
  public void append(int src, int dst, double time, int edgeId) {
    if (edgeId <= lastEdgeId) {
      throw new IllegalArgumentException(
          "edge id " + edgeId + " does not follow the last appended edge id " + lastEdgeId);
    }
    checkNode(src);
    checkNode(dst);
    if (!Double.isFinite(time) || time < latestTime(src) || time < latestTime(dst)) {
      throw new IllegalArgumentException(
          "event " + edgeId + " at time " + time + " is before an earlier event of its endpoints");
    }
    add(src, dst, time, edgeId);
    add(dst, src, time, edgeId);
    lastEdgeId = edgeId;
  }

  private void checkNode(int v) {
    if (v < 0 || v >= rows.length) {
      throw new IllegalArgumentException(
          "node " + v + " outside the index's capacity 0.." + (rows.length - 1));
    }
  }

  /** The time of the latest event in v's row, pending included; negative infinity when none. */
  private double latestTime(int v) {
    return length[v] == 0 ? Double.NEGATIVE_INFINITY : rows[v].times[length[v] - 1];
  }

  private void add(int v, int neighbor, double time, int edgeId) {
    int n = length[v];
    Row row = rows[v];
    if (row == null || n == row.neighbors.length) {
      row = new Row(row, Math.max(FIRST_CAPACITY, 2 * n));
      rows[v] = row;
    }
    row.neighbors[n] = neighbor;
    row.edgeIds[n] = edgeId;
    row.times[n] = time;
    length[v] = n + 1;
    if (!isTouched[v]) {
      isTouched[v] = true;
      if (touchedCount == touched.length) {
        touched = Arrays.copyOf(touched, 2 * touchedCount);
      }
      touched[touchedCount++] = v;
    }
  }

  /** Makes every pending entry visible to {@link #published()}; call under the writer's lock. */
  public void publish() {
    for (int i = 0; i < touchedCount; i++) {
      int v = touched[i];
      published[v] = length[v];
      isTouched[v] = false;
    }
    touchedCount = 0;
    publishedLastEdgeId = lastEdgeId;
  }

  /** Drops every pending entry: the index is again what readers see. */
  public void discardPending() {
    for (int i = 0; i < touchedCount; i++) {
      int v = touched[i];
      length[v] = published[v];
      isTouched[v] = false;
    }
    touchedCount = 0;
    lastEdgeId = publishedLastEdgeId;
  }

  /** The rows with pending entries: what the writer samples a batch it is applying with. */
  public TemporalAdjacency pending() {
    return pendingView;
  }

  /** The rows readers see: published entries only. */
  public TemporalAdjacency published() {
    return publishedView;
  }

  /** Entries (both directions) readers see in v's row. */
  public int publishedDegree(int v) {
    return published[v];
  }

  /** One of the two views: its rows end at the pending or at the published length. */
  private final class View implements TemporalAdjacency {
    private final boolean pending;

    View(boolean pending) {
      this.pending = pending;
    }

    @Override
    public int nodeCount() {
      return rows.length;
    }

    @Override
    public int rowStart(int v) {
      return 0;
    }

    @Override
    public int rowEnd(int v) {
      return pending ? length[v] : published[v];
    }

    @Override
    public int[] neighborsOf(int v) {
      Row row = rows[v];
      return row == null ? NO_INTS : row.neighbors;
    }

    @Override
    public int[] edgeIdsOf(int v) {
      Row row = rows[v];
      return row == null ? NO_INTS : row.edgeIds;
    }

    @Override
    public double[] timesOf(int v) {
      Row row = rows[v];
      return row == null ? NO_TIMES : row.times;
    }
  }
}
