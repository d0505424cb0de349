package dev.depbloom.model;

import dev.depbloom.batch.Batch;
import dev.depbloom.model.config.GnnConfig;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.sampling.SampledLayer;
import dev.depbloom.sampling.TemporalSample;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The plan of one batch (TGL's message-flow graph), in Java arrays: for every snapshot a level
 * table (level 0 the roots, level j + 1 the samples of level j) and the segment structure of every
 * attention layer; the deduplicated memory reads; and what the batch will write. It depends on the
 * events and the sample only, not on memory or parameters, so it can be built ahead of the step
 * that uses it.
 *
 * <p>Attention layer l (1-based) of an L-layer model has as targets levels {@code 0..L-l} and reads
 * the sampled layers below them; the last layer's targets are the roots.
 */
public final class BatchGraph {
  private final Batch batch;
  private final int eventCount;
  private final List<Snapshot> snapshots;
  private final ReadPlan reads; // null without memory
  private final WritePlan writes; // null without memory

  /**
   * One snapshot's level table and layer plans.
   *
   * @param levelStart {@code [L + 2]} start of each level; the last entry is the table size
   * @param nodes {@code [P]} node at each position
   * @param times {@code [P]} the time each position is read at
   * @param layers plans of attention layers 1..L, in order
   */
  public record Snapshot(int[] levelStart, int[] nodes, double[] times, List<LayerPlan> layers) {
    public int positionCount() {
      return nodes.length;
    }
  }

  private BatchGraph(
      Batch batch, int eventCount, List<Snapshot> snapshots, ReadPlan reads, WritePlan writes) {
    this.batch = batch;
    this.eventCount = eventCount;
    this.snapshots = snapshots;
    this.reads = reads;
    this.writes = writes;
  }

  /** Plans a batch from its roots and its sampled neighborhood. */
  public static BatchGraph build(Batch batch, TemporalSample sample, ModelConfig config) {
    int attentionLayers =
        config.gnn().arch() == GnnConfig.Arch.TRANSFORMER_ATTENTION ? config.gnn().layers() : 0;
    // Snapshot samplers query every layer at the root's time (TGL's prop_time, which DySAT uses).
    boolean propTime = config.sampling().history() > 1;
    List<Snapshot> snapshots = new ArrayList<>();
    for (List<SampledLayer> layers : sample.snapshots()) {
      snapshots.add(snapshot(batch, layers, attentionLayers, propTime));
    }
    ReadPlan reads = null;
    WritePlan writes = null;
    if (config.memory().enabled()) {
      Snapshot s0 = snapshots.get(0);
      int readPositions = attentionLayers > 0 ? s0.positionCount() : batch.roots().length;
      reads = ReadPlan.of(s0.nodes(), s0.times(), readPositions);
      SampledLayer receivers =
          config.memory().deliverTo() == MemoryConfig.Delivery.NEIGHBORS
              ? sample.layers().get(0)
              : null;
      writes =
          WritePlan.of(
              batch.roots(), batch.rootTimes(), batch.size(), reads.positionRead(), receivers);
    }
    return new BatchGraph(batch, batch.size(), List.copyOf(snapshots), reads, writes);
  }

  /**
   * Plans a batch that only writes memory (the replay before testing): reads of the roots alone, no
   * embedding. Replaying this way leaves memory exactly as a full forward pass would, because the
   * write depends only on the endpoints' updated memory.
   *
   * @param receivers sampled neighbors of the roots for delivery to neighbors, or null
   */
  public static BatchGraph forMemoryWrite(Batch batch, SampledLayer receivers) {
    ReadPlan reads = ReadPlan.of(batch.roots(), batch.rootTimes(), batch.roots().length);
    WritePlan writes =
        WritePlan.of(
            batch.roots(), batch.rootTimes(), batch.size(), reads.positionRead(), receivers);
    return new BatchGraph(batch, batch.size(), List.of(), reads, writes);
  }

  /**
   * The plan of a large batch from its micro-batches' ({@link LargeBatch#of}): snapshots and reads
   * already concatenated, no writes of its own.
   */
  static BatchGraph concatenated(Batch batch, List<Snapshot> snapshots, ReadPlan reads) {
    return new BatchGraph(batch, batch.size(), List.copyOf(snapshots), reads, null);
  }

  private static Snapshot snapshot(
      Batch batch, List<SampledLayer> layers, int attentionLayers, boolean propTime) {
    int levels = Math.min(attentionLayers, layers.size());
    int[] levelStart = new int[levels + 2];
    levelStart[1] = batch.roots().length;
    for (int j = 0; j < levels; j++) {
      levelStart[j + 2] = levelStart[j + 1] + layers.get(j).sampleCount();
    }
    int total = levelStart[levels + 1];
    int[] nodes = new int[total];
    double[] times = new double[total];
    System.arraycopy(batch.roots(), 0, nodes, 0, levelStart[1]);
    System.arraycopy(batch.rootTimes(), 0, times, 0, levelStart[1]);
    for (int j = 0; j < levels; j++) {
      SampledLayer layer = layers.get(j);
      int base = levelStart[j + 1];
      System.arraycopy(layer.nodes(), 0, nodes, base, layer.sampleCount());
      if (propTime) {
        int[] off = layer.offsets();
        for (int r = 0; r < layer.rootCount(); r++) {
          Arrays.fill(times, base + off[r], base + off[r + 1], times[levelStart[j] + r]);
        }
      } else {
        System.arraycopy(layer.edgeTimes(), 0, times, base, layer.sampleCount());
      }
    }
    List<LayerPlan> plans = new ArrayList<>();
    for (int l = 1; l <= levels; l++) {
      plans.add(LayerPlan.of(layers, levelStart, levels - l));
    }
    return new Snapshot(levelStart, nodes, times, List.copyOf(plans));
  }

  public Batch batch() {
    return batch;
  }

  /** B, the number of events. */
  public int eventCount() {
    return eventCount;
  }

  /** Number of roots, {@code (2 + k) B}. */
  public int rootCount() {
    return batch.roots().length;
  }

  public List<Snapshot> snapshots() {
    return snapshots;
  }

  /** The memory reads, or null for memory-less models. */
  public ReadPlan reads() {
    return reads;
  }

  /**
   * The memory writes, or null for memory-less models and for a large batch's plan ({@link
   * LargeBatch}), whose micro-batches write.
   */
  public WritePlan writes() {
    return writes;
  }
}
