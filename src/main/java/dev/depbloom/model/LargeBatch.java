package dev.depbloom.model;

import dev.depbloom.batch.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * One plan of the micro-batches of a large batch, for one embedding, loss and backward over all
 * their events on one device (DepBloom's local refinement, docs/schedules.md, "Placement"): each
 * micro-batch keeps its own plan for its memory update and its write, and their concatenation is
 * what the training pass reads.
 *
 * <p>The concatenation lays the roots out {@code [src | dst | neg...]} over all events (micro-batch
 * order inside each block); every other level of every snapshot holds the micro-batches' positions
 * of that level in micro-batch order, so that an attention layer's targets stay the first positions
 * of the table. The memory reads are concatenated <b>without deduplication across
 * micro-batches</b>: under refinement a node read by micro-batches {@code j} and {@code j'} reads
 * two different memories (each through the writes of the micro-batches before it), so read {@code
 * u} of micro-batch {@code j} is read {@code offset_j + u} of the whole, and row {@code offset_j +
 * u} of the concatenated memory updates is its updated memory. The concatenation writes nothing
 * itself ({@link BatchGraph#writes()} is null): each micro-batch writes its own.
 */
public final class LargeBatch {
  private LargeBatch() {}

  /**
   * The plan of {@code parts}' events as one batch; the parts must be plans of one model (the same
   * snapshots, levels and negatives per event), in event order.
   */
  public static BatchGraph of(List<BatchGraph> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    BatchGraph first = parts.get(0);
    for (BatchGraph g : parts) {
      if (g.snapshots().size() != first.snapshots().size()
          || g.rootCount() / g.eventCount() != first.rootCount() / first.eventCount()
          || (g.reads() == null) != (first.reads() == null)) {
        throw new IllegalArgumentException("micro-batches of different shapes");
      }
    }
    List<int[]> rootMaps = rootMaps(parts);
    List<BatchGraph.Snapshot> snapshots = new ArrayList<>();
    List<List<int[]>> positionMaps = new ArrayList<>();
    for (int h = 0; h < first.snapshots().size(); h++) {
      List<int[]> maps = new ArrayList<>();
      snapshots.add(snapshot(parts, h, rootMaps, maps));
      positionMaps.add(maps);
    }
    ReadPlan reads = first.reads() == null ? null : reads(parts, positionMaps.get(0));
    return BatchGraph.concatenated(batch(parts, rootMaps), snapshots, reads);
  }

  /**
   * Per part, the position of each of its roots among the large batch's: root {@code c * B_j + i}
   * of part {@code j} (block c: sources, destinations, each negative) is {@code c * B + off_j + i}.
   */
  private static List<int[]> rootMaps(List<BatchGraph> parts) {
    int events = 0;
    for (BatchGraph g : parts) {
      events += g.eventCount();
    }
    List<int[]> out = new ArrayList<>(parts.size());
    int offset = 0;
    for (BatchGraph g : parts) {
      int b = g.eventCount();
      int[] map = new int[g.rootCount()];
      for (int r = 0; r < map.length; r++) {
        map[r] = (r / b) * events + offset + r % b;
      }
      out.add(map);
      offset += b;
    }
    return out;
  }

  private static Batch batch(List<BatchGraph> parts, List<int[]> rootMaps) {
    int events = 0;
    int roots = 0;
    for (BatchGraph g : parts) {
      events += g.eventCount();
      roots += g.rootCount();
    }
    int[] ids = new int[events];
    int[] nodes = new int[roots];
    double[] times = new double[roots];
    int e = 0;
    for (int j = 0; j < parts.size(); j++) {
      Batch b = parts.get(j).batch();
      System.arraycopy(b.events(), 0, ids, e, b.size());
      e += b.size();
      int[] map = rootMaps.get(j);
      for (int r = 0; r < map.length; r++) {
        nodes[map[r]] = b.roots()[r];
        times[map[r]] = b.rootTimes()[r];
      }
    }
    return new Batch(parts.get(0).batch().index(), ids, nodes, times);
  }

  /**
   * Snapshot {@code h} of the large batch; {@code maps} receives, per part, the large batch's
   * position of each of the part's positions.
   */
  private static BatchGraph.Snapshot snapshot(
      List<BatchGraph> parts, int h, List<int[]> rootMaps, List<int[]> maps) {
    int levels = parts.get(0).snapshots().get(h).levelStart().length - 1;
    int[] levelStart = new int[levels + 1];
    for (BatchGraph g : parts) {
      int[] ls = g.snapshots().get(h).levelStart();
      if (ls.length != levels + 1) {
        throw new IllegalArgumentException("micro-batches of different depths");
      }
      for (int l = 0; l < levels; l++) {
        levelStart[l + 1] += ls[l + 1] - ls[l];
      }
    }
    for (int l = 0; l < levels; l++) {
      levelStart[l + 1] += levelStart[l];
    }
    int[] nodes = new int[levelStart[levels]];
    double[] times = new double[nodes.length];
    int[] filled = levelStart.clone(); // next free position of each level
    for (int j = 0; j < parts.size(); j++) {
      BatchGraph.Snapshot s = parts.get(j).snapshots().get(h);
      int[] ls = s.levelStart();
      int[] map = new int[s.positionCount()];
      System.arraycopy(rootMaps.get(j), 0, map, 0, ls[1]);
      for (int l = 1; l < levels; l++) {
        for (int p = ls[l]; p < ls[l + 1]; p++) {
          map[p] = filled[l]++;
        }
      }
      for (int p = 0; p < map.length; p++) {
        nodes[map[p]] = s.nodes()[p];
        times[map[p]] = s.times()[p];
      }
      maps.add(map);
    }
    List<LayerPlan> layers = new ArrayList<>();
    for (int q = 0; q < parts.get(0).snapshots().get(h).layers().size(); q++) {
      layers.add(layer(parts, h, q, maps));
    }
    return new BatchGraph.Snapshot(levelStart, nodes, times, List.copyOf(layers));
  }

  /** Attention layer {@code q} of snapshot {@code h}: the parts' samples, in part order. */
  private static LayerPlan layer(List<BatchGraph> parts, int h, int q, List<int[]> maps) {
    int targets = 0;
    int fanout = 0;
    int samples = 0;
    int edges = 0;
    for (BatchGraph g : parts) {
      LayerPlan p = g.snapshots().get(h).layers().get(q);
      targets += p.targetCount();
      fanout = Math.max(fanout, p.fanout());
      samples += p.sampleCount();
      edges += p.distinctEdges().length;
    }
    int[] targetIndex = new int[samples];
    int[] slot = new int[samples];
    int[] sourcePosition = new int[samples];
    int[] edgeRow = new int[samples];
    int[] distinctEdges = new int[edges];
    float[] since = new float[samples];
    int s = 0;
    int e = 0;
    for (int j = 0; j < parts.size(); j++) {
      LayerPlan p = parts.get(j).snapshots().get(h).layers().get(q);
      int[] map = maps.get(j);
      for (int i = 0; i < p.sampleCount(); i++, s++) {
        int target = map[p.targetIndex()[i]];
        targetIndex[s] = target;
        slot[s] = target * fanout + (p.slot()[i] - p.targetIndex()[i] * p.fanout());
        sourcePosition[s] = map[p.sourcePosition()[i]];
        edgeRow[s] = e + p.edgeRow()[i];
        since[s] = p.sinceEdge()[i];
      }
      System.arraycopy(p.distinctEdges(), 0, distinctEdges, e, p.distinctEdges().length);
      e += p.distinctEdges().length;
    }
    return new LayerPlan(
        targets, fanout, targetIndex, slot, sourcePosition, edgeRow, distinctEdges, since);
  }

  /** The parts' reads, concatenated in part order (see the class comment). */
  private static ReadPlan reads(List<BatchGraph> parts, List<int[]> positionMaps) {
    int positions = 0;
    int reads = 0;
    int distinct = 0;
    for (BatchGraph g : parts) {
      positions += g.reads().positionRead().length;
      reads += g.reads().readCount();
      distinct += g.reads().distinctNodes().length;
    }
    int[] positionRead = new int[positions];
    int[] readNode = new int[reads];
    double[] readTime = new double[reads];
    int[] readDistinct = new int[reads];
    int[] distinctNodes = new int[distinct];
    int u = 0;
    int d = 0;
    for (int j = 0; j < parts.size(); j++) {
      ReadPlan r = parts.get(j).reads();
      int[] map = positionMaps.get(j);
      for (int p = 0; p < r.positionRead().length; p++) {
        positionRead[map[p]] = u + r.positionRead()[p];
      }
      System.arraycopy(r.readNode(), 0, readNode, u, r.readCount());
      System.arraycopy(r.readTime(), 0, readTime, u, r.readCount());
      for (int i = 0; i < r.readCount(); i++) {
        readDistinct[u + i] = d + r.readDistinct()[i];
      }
      System.arraycopy(r.distinctNodes(), 0, distinctNodes, d, r.distinctNodes().length);
      u += r.readCount();
      d += r.distinctNodes().length;
    }
    return new ReadPlan(positionRead, readNode, readTime, readDistinct, distinctNodes);
  }
}
