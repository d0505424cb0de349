package dev.depbloom.model;

import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.MemoryReader;
import dev.depbloom.nn.MemoryReads;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * The tensors of one batch (the fetch stage): memory and mail of the distinct nodes read, time
 * deltas, features, and the index tensors of every layer. Created inside the step's scope, which
 * frees them.
 *
 * <p>Node representations at the input are kept as a table plus a per-position row index: the
 * unique memory reads for memory models, the distinct nodes' features otherwise.
 */
public final class BatchInputs {
  /** Per snapshot: the input table's row for each position ({@code [P]} int array) and layers. */
  record SnapshotTensors(int[] positionRow, Tensor nodeTable, List<LayerTensors> layers) {
    SnapshotTensors on(RankDevice d) {
      return new SnapshotTensors(
          positionRow, d.place(nodeTable), layers.stream().map(l -> l.on(d)).toList());
    }
  }

  /** One attention layer's index tensors; sources and targets come from the previous layer. */
  record LayerTensors(
      long targetCount,
      int fanout,
      Tensor targetRows, // [T] rows of the input table (layer 1); null deeper (the first T rows)
      Tensor sourceIndex, // [S]
      Tensor edgeFeatures, // [Eu, de] or null
      Tensor edgeRow, // [S]
      Tensor sinceEdge, // [S]
      Tensor targetIndex, // [S]
      Tensor slot) { // [S]
    LayerTensors on(RankDevice d) {
      return new LayerTensors(
          targetCount,
          fanout,
          d.place(targetRows),
          d.place(sourceIndex),
          d.place(edgeFeatures),
          d.place(edgeRow),
          d.place(sinceEdge),
          d.place(targetIndex),
          d.place(slot));
    }
  }

  final BatchGraph graph;
  final MemoryReads memoryReads; // null without memory
  final Tensor readNodeFeatures; // [U, dn] or null
  final Tensor rootReads; // [R] unique read of each root, or null
  final Tensor jodieDelta; // [R] (t - memoryTime) / (t + 1), or null
  final List<SnapshotTensors> snapshots;

  private BatchInputs(
      BatchGraph graph,
      MemoryReads memoryReads,
      Tensor readNodeFeatures,
      Tensor rootReads,
      Tensor jodieDelta,
      List<SnapshotTensors> snapshots) {
    this.graph = graph;
    this.memoryReads = memoryReads;
    this.readNodeFeatures = readNodeFeatures;
    this.rootReads = rootReads;
    this.jodieDelta = jodieDelta;
    this.snapshots = snapshots;
  }

  /** Gathers everything a batch reads. {@code memory} is null for memory-less models. */
  public static BatchInputs fetch(
      BatchGraph graph,
      MemoryReader memory,
      StreamFeatures features,
      boolean nodeFeaturesIntoMemory) {
    return fetch(graph, memory, features, nodeFeaturesIntoMemory, true);
  }

  /**
   * Gathers what a batch reads besides memory and mail: its inputs when its memory update is shared
   * with other plans ({@link SharedReads}) and computed from {@link #forMemoryUpdate} once. {@link
   * TemporalGnn#embed} then takes the rows of that update that are the plan's reads.
   */
  public static BatchInputs fetchWithSharedUpdate(
      BatchGraph graph,
      MemoryReader memory,
      StreamFeatures features,
      boolean nodeFeaturesIntoMemory) {
    return fetch(graph, memory, features, nodeFeaturesIntoMemory, false);
  }

  /**
   * The inputs of a memory update of {@code reads} alone (for {@link TemporalGnn#updateMemory}).
   */
  public static BatchInputs forMemoryUpdate(ReadPlan reads, MemoryReader memory) {
    return new BatchInputs(null, memoryReads(reads, memory), null, null, null, List.of());
  }

  /**
   * What the training pass of a large batch ({@link LargeBatch}) reads besides memory: its memory
   * update is the concatenation of its micro-batches' updates. {@code lastUpdate[u]} is the last
   * update time of read {@code u}'s node in the memory its micro-batch read ({@link #lastUpdates}),
   * for JODIE's time projection.
   */
  public static BatchInputs fetchLarge(
      BatchGraph graph,
      double[] lastUpdate,
      StreamFeatures features,
      boolean nodeFeaturesIntoMemory) {
    return fetch(graph, null, features, nodeFeaturesIntoMemory, false, u -> lastUpdate[u]);
  }

  /** The last update time in {@code memory} of each read's node of {@code reads}. */
  public static double[] lastUpdates(ReadPlan reads, MemoryReader memory) {
    double[] out = new double[reads.readCount()];
    for (int u = 0; u < out.length; u++) {
      out[u] = memory.lastUpdate(reads.readNode()[u]);
    }
    return out;
  }

  /**
   * The memory-update inputs of a large batch's micro-batches ({@link #forMemoryUpdate} each,
   * placed on {@code device}) as one: their rows concatenated in order, read {@code u} of
   * micro-batch {@code j} read {@code offset_j + u} of the whole, as in {@code large} ({@link
   * LargeBatch#of}), whose reads say which of the concatenated distinct rows each read updates.
   */
  public static BatchInputs concatMemoryUpdates(
      List<BatchInputs> parts, BatchGraph large, RankDevice device) {
    int n = parts.size();
    Tensor[][] t = new Tensor[4][n];
    for (int j = 0; j < n; j++) {
      MemoryReads r = parts.get(j).memoryReads;
      t[0][j] = r.memory();
      t[1][j] = r.mail();
      t[2][j] = r.sinceUpdate();
      t[3][j] = r.sinceMail();
    }
    MemoryReads reads =
        new MemoryReads(
            torch.cat(new TensorVector(t[0])),
            torch.cat(new TensorVector(t[1])),
            device.place(Tensors.indices(large.reads().readDistinct())),
            torch.cat(new TensorVector(t[2])),
            torch.cat(new TensorVector(t[3])));
    return new BatchInputs(null, reads, null, null, null, List.of());
  }

  private static BatchInputs fetch(
      BatchGraph graph,
      MemoryReader memory,
      StreamFeatures features,
      boolean nodeFeaturesIntoMemory,
      boolean readMemory) {
    IntToDoubleFunction lastUpdate =
        graph.reads() == null ? null : u -> memory.lastUpdate(graph.reads().readNode()[u]);
    return fetch(graph, memory, features, nodeFeaturesIntoMemory, readMemory, lastUpdate);
  }

  private static BatchInputs fetch(
      BatchGraph graph,
      MemoryReader memory,
      StreamFeatures features,
      boolean nodeFeaturesIntoMemory,
      boolean readMemory,
      IntToDoubleFunction lastUpdate) {
    FeatureMatrix nodeFeatures = features.nodeFeatures();
    MemoryReads reads = null;
    Tensor readFeatures = null;
    Tensor rootReads = null;
    Tensor jodie = null;
    ReadPlan plan = graph.reads();
    if (plan != null) {
      reads = readMemory ? memoryReads(plan, memory) : null;
      rootReads = Tensors.indices(plan.positionRead(), graph.rootCount());
      jodie = jodieDelta(graph, plan, lastUpdate);
      if (nodeFeaturesIntoMemory && nodeFeatures.dim() > 0) {
        readFeatures = Tensors.gatherRows(nodeFeatures, plan.readNode(), plan.readCount());
      }
    }
    List<SnapshotTensors> snaps = new ArrayList<>();
    for (BatchGraph.Snapshot s : graph.snapshots()) {
      snaps.add(snapshot(s, plan, features));
    }
    return new BatchInputs(graph, reads, readFeatures, rootReads, jodie, List.copyOf(snaps));
  }

  /**
   * The same inputs read against other memory whose update is shared ({@link
   * #fetchWithSharedUpdate}): only the roots' time since their last memory update (JODIE's
   * projection) depends on that memory; the tensors of the layers are shared with this one. The new
   * tensor is placed on {@code device}, where these inputs are.
   */
  public BatchInputs withSharedUpdateOf(MemoryReader memory, RankDevice device) {
    if (memoryReads != null) {
      throw new IllegalStateException("these inputs read memory themselves; fetch them again");
    }
    ReadPlan plan = graph.reads();
    Tensor jodie =
        plan == null
            ? null
            : device.place(jodieDelta(graph, plan, u -> memory.lastUpdate(plan.readNode()[u])));
    return new BatchInputs(graph, null, readNodeFeatures, rootReads, jodie, snapshots);
  }

  private static MemoryReads memoryReads(ReadPlan plan, MemoryReader memory) {
    int u = plan.readCount();
    int m = memory.mailboxSize();
    float[] sinceUpdate = new float[u];
    float[] sinceMail = new float[u * m];
    for (int i = 0; i < u; i++) {
      int v = plan.readNode()[i];
      double t = plan.readTime()[i];
      sinceUpdate[i] = (float) (t - memory.lastUpdate(v));
      for (int j = 0; j < m; j++) {
        sinceMail[i * m + j] = (float) (t - memory.mailTime(v, j));
      }
    }
    return new MemoryReads(
        memory.readMemory(plan.distinctNodes()),
        memory.readMail(plan.distinctNodes()),
        Tensors.indices(plan.readDistinct()),
        Tensors.floats(sinceUpdate, u),
        Tensors.floats(sinceMail, u, m));
  }

  /** {@code lastUpdate}: the last update time of each read's node in the memory read. */
  private static Tensor jodieDelta(
      BatchGraph graph, ReadPlan plan, IntToDoubleFunction lastUpdate) {
    int r = graph.rootCount();
    float[] delta = new float[r];
    for (int p = 0; p < r; p++) {
      int read = plan.positionRead()[p];
      double t = plan.readTime()[read];
      delta[p] = (float) ((t - lastUpdate.applyAsDouble(read)) / (t + 1));
    }
    return Tensors.floats(delta, r);
  }

  private static SnapshotTensors snapshot(
      BatchGraph.Snapshot s, ReadPlan plan, StreamFeatures features) {
    int[] positionRow;
    Tensor nodeTable = null;
    if (plan != null) {
      positionRow = plan.positionRead();
    } else {
      DenseIndex distinct = new DenseIndex(s.positionCount());
      positionRow = new int[s.positionCount()];
      for (int p = 0; p < positionRow.length; p++) {
        positionRow[p] = distinct.indexOf(s.nodes()[p]);
      }
      FeatureMatrix nf = features.nodeFeatures();
      if (nf.dim() > 0) {
        nodeTable = Tensors.gatherRows(nf, distinct.keys(), distinct.size());
      }
    }
    List<LayerTensors> layers = new ArrayList<>();
    for (int l = 0; l < s.layers().size(); l++) {
      layers.add(layer(s.layers().get(l), l == 0 ? positionRow : null, features));
    }
    return new SnapshotTensors(positionRow, nodeTable, List.copyOf(layers));
  }

  /** Layer 1 indexes the input table through {@code positionRow}; deeper layers index positions. */
  private static LayerTensors layer(LayerPlan p, int[] positionRow, StreamFeatures features) {
    int s = p.sampleCount();
    Tensor targetRows = null; // deeper layers: the first T rows of the previous layer's output
    int[] sources = p.sourcePosition();
    if (positionRow != null) {
      targetRows = Tensors.indices(positionRow, p.targetCount());
      sources = new int[s];
      for (int k = 0; k < s; k++) {
        sources[k] = positionRow[p.sourcePosition()[k]];
      }
    }
    FeatureMatrix ef = features.edgeFeatures();
    Tensor edgeFeatures =
        ef.dim() > 0 ? Tensors.gatherRows(ef, p.distinctEdges(), p.distinctEdges().length) : null;
    return new LayerTensors(
        p.targetCount(),
        p.fanout(),
        targetRows,
        Tensors.indices(sources),
        edgeFeatures,
        Tensors.indices(p.edgeRow()),
        Tensors.floats(p.sinceEdge(), s),
        Tensors.indices(p.targetIndex()),
        Tensors.indices(p.slot()));
  }

  public BatchGraph graph() {
    return graph;
  }

  /**
   * Bytes of the memory and mailbox rows these inputs read (the distinct nodes'): what a memory
   * kept in host memory must serve and copy to a GPU per batch.
   */
  public long memoryBytes() {
    return memoryReads == null ? 0 : bytes(memoryReads.memory()) + bytes(memoryReads.mail());
  }

  /**
   * Bytes of every other tensor of these inputs (index tensors, time deltas, features): what a GPU
   * run copies in per batch whatever the memory's placement.
   */
  public long hostBytes() {
    long n = bytes(readNodeFeatures) + bytes(rootReads) + bytes(jodieDelta);
    if (memoryReads != null) {
      n +=
          bytes(memoryReads.readNode())
              + bytes(memoryReads.sinceUpdate())
              + bytes(memoryReads.sinceMail());
    }
    for (SnapshotTensors s : snapshots) {
      n += bytes(s.nodeTable());
      for (LayerTensors l : s.layers()) {
        n +=
            bytes(l.targetRows())
                + bytes(l.sourceIndex())
                + bytes(l.edgeFeatures())
                + bytes(l.edgeRow())
                + bytes(l.sinceEdge())
                + bytes(l.targetIndex())
                + bytes(l.slot());
      }
    }
    return n;
  }

  /**
   * Bytes a gather of edge features once per sampled edge (duplicates included: DistTGL's {@code
   * prepare_input}) adds to {@link #hostBytes()}, which counts each distinct edge's features once:
   * an edge sampled {@code n} times in a layer counts {@code n - 1} times here.
   */
  public long repeatedEdgeFeatureBytes() {
    long n = 0;
    for (SnapshotTensors s : snapshots) {
      for (LayerTensors l : s.layers()) {
        Tensor ef = l.edgeFeatures();
        if (ef != null && ef.size(0) > 0) {
          n += (l.edgeRow().numel() - ef.size(0)) * (bytes(ef) / ef.size(0));
        }
      }
    }
    return n;
  }

  private static long bytes(Tensor t) {
    return t == null ? 0 : t.numel() * t.element_size();
  }

  /**
   * These inputs on {@code device}: themselves on the host, else a copy of every tensor there
   * (inputs are built on the host, where memory and features live).
   */
  public BatchInputs on(RankDevice device) {
    if (device.host()) {
      return this;
    }
    MemoryReads reads =
        memoryReads == null
            ? null
            : new MemoryReads(
                device.place(memoryReads.memory()),
                device.place(memoryReads.mail()),
                device.place(memoryReads.readNode()),
                device.place(memoryReads.sinceUpdate()),
                device.place(memoryReads.sinceMail()));
    return new BatchInputs(
        graph,
        reads,
        device.place(readNodeFeatures),
        device.place(rootReads),
        device.place(jodieDelta),
        snapshots.stream().map(s -> s.on(device)).toList());
  }
}
