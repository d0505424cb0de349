package dev.depbloom.model;

import dev.depbloom.model.config.ConfigException;
import dev.depbloom.model.config.GnnConfig;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.nn.AttentionInputs;
import dev.depbloom.nn.EdgePredictor;
import dev.depbloom.nn.GruMemoryUpdater;
import dev.depbloom.nn.JodieTimeProjection;
import dev.depbloom.nn.MailAttentionMemoryUpdater;
import dev.depbloom.nn.MemoryUpdater;
import dev.depbloom.nn.RnnMemoryUpdater;
import dev.depbloom.nn.SnapshotRnnCombiner;
import dev.depbloom.nn.StreamParts;
import dev.depbloom.nn.TemporalAttentionLayer;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.LayerNormImpl;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.LongVector;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;

/**
 * A temporal GNN assembled from a {@link ModelConfig}, TGL's GeneralModel: an optional memory
 * updater, an embedding (temporal attention layers per snapshot, or identity with optional JODIE
 * projection), an optional snapshot combiner, and the edge predictor. The five published models are
 * five configurations of this one class.
 *
 * <p>The forward pass is three stages, so that a device step reads as the data flow and can time
 * each: {@link #updateMemory} (whose result the batch also writes back), {@link #embed} and {@link
 * #predict}.
 */
public final class TemporalGnn extends Module {
  private final ModelConfig config;
  private final MemoryUpdater updater; // null without memory
  private final LinearImpl nodeFeatureMap; // null unless node features need resizing
  private final List<List<TemporalAttentionLayer>> layers; // [layer][snapshot]
  private final LayerNormImpl identityNorm; // identity arch only
  private final JodieTimeProjection jodie; // JODIE time transform only
  private final SnapshotRnnCombiner combiner; // several snapshots only
  private final EdgePredictor predictor;

  /**
   * @param nodeFeatureDim width of the data's node features (0 if none)
   * @param edgeFeatureDim width of the data's edge features (0 if none)
   */
  public TemporalGnn(ModelConfig config, int nodeFeatureDim, int edgeFeatureDim) {
    this.config = config;
    MemoryConfig mem = config.memory();
    GnnConfig gnn = config.gnn();
    int inputDim = nodeFeatureDim;
    MemoryUpdater u = null;
    LinearImpl map = null;
    if (mem.enabled()) {
      int mailDim = 2 * mem.dim() + edgeFeatureDim; // the content; see MemoryConfig.mailDim
      u = register_module("memory_updater", updater(config, mailDim));
      if (mem.combineNodeFeature() && nodeFeatureDim > 0 && nodeFeatureDim != mem.dim()) {
        map = register_module("node_feat_map", new LinearImpl(nodeFeatureDim, mem.dim()));
      }
      inputDim = mem.dim();
    }
    this.updater = u;
    this.nodeFeatureMap = map;
    List<List<TemporalAttentionLayer>> stack = new ArrayList<>();
    LayerNormImpl norm = null;
    JodieTimeProjection proj = null;
    if (gnn.arch() == GnnConfig.Arch.TRANSFORMER_ATTENTION) {
      if (config.attentionHasNoInput(nodeFeatureDim, edgeFeatureDim)) {
        throw new ConfigException(
            "model "
                + config.name()
                + ": its first attention layer has no input: the data has no"
                + " node or edge features and gnn.dim_time is 0; give the data stand-in edge"
                + " features (--edge-feature-dim W) or a time encoding (--set gnn.dim_time=100)");
      }
      addAttentionLayers(stack, inputDim, edgeFeatureDim);
    } else {
      norm =
          register_module(
              "identity_norm", new LayerNormImpl(new LongVector(new long[] {inputDim})));
      if (gnn.timeTransform() == GnnConfig.TimeTransform.JODIE) {
        proj = register_module("jodie_time", new JodieTimeProjection(inputDim));
      }
    }
    this.layers = List.copyOf(stack);
    this.identityNorm = norm;
    this.jodie = proj;
    this.combiner =
        config.sampling().history() > 1
            ? register_module("combiner", new SnapshotRnnCombiner(gnn.dimOut()))
            : null;
    this.predictor =
        register_module(
            "edge_predictor", new EdgePredictor(layers.isEmpty() ? inputDim : gnn.dimOut()));
  }

  /**
   * Registers the attention layers, one per layer and snapshot in that order, and adds them to
   * {@code stack} as {@code [layer][snapshot]}.
   */
  private void addAttentionLayers(
      List<List<TemporalAttentionLayer>> stack, int inputDim, int edgeFeatureDim) {
    GnnConfig gnn = config.gnn();
    for (int l = 0; l < gnn.layers(); l++) {
      List<TemporalAttentionLayer> perSnapshot = new ArrayList<>();
      for (int h = 0; h < config.sampling().history(); h++) {
        TemporalAttentionLayer layer =
            new TemporalAttentionLayer(
                l == 0 ? inputDim : gnn.dimOut(),
                edgeFeatureDim,
                gnn.dimTime(),
                gnn.attentionHeads(),
                gnn.dimOut(),
                config.train().dropout(),
                config.train().attentionDropout());
        perSnapshot.add(register_module("l" + l + "h" + h, layer));
      }
      stack.add(List.copyOf(perSnapshot));
    }
  }

  private static MemoryUpdater updater(ModelConfig config, int mailDim) {
    MemoryConfig m = config.memory();
    return switch (m.updater()) {
      case GRU -> new GruMemoryUpdater(mailDim, m.dim(), m.dimTime(), deltaInMail(m));
      case RNN -> new RnnMemoryUpdater(mailDim, m.dim(), m.dimTime(), deltaInMail(m));
      case TRANSFORMER ->
          new MailAttentionMemoryUpdater(
              mailDim,
              m.dim(),
              m.dimTime(),
              m.mailboxSize(),
              m.attentionHeads(),
              config.train().dropout(),
              config.train().attentionDropout());
    };
  }

  private static boolean deltaInMail(MemoryConfig m) {
    return m.timeDelta() == MemoryConfig.TimeDelta.MAIL;
  }

  public ModelConfig config() {
    return config;
  }

  /** Updated memory of every unique read {@code [U, dim]}, or null for memory-less models. */
  public Tensor updateMemory(BatchInputs in) {
    return updateMemory(in, null);
  }

  /**
   * As {@link #updateMemory(BatchInputs)}, the updater's time projection kept in (or taken from)
   * {@code parts} when it is not null: the same reads updated from another memory, without
   * gradient.
   */
  public Tensor updateMemory(BatchInputs in, StreamParts parts) {
    return updater == null ? null : updater.update(in.memoryReads, parts);
  }

  /**
   * As {@link #updateMemory(BatchInputs)}, in one pass whatever the gradient mode ({@link
   * MemoryUpdater#updateWhole}); null for memory-less models.
   */
  public Tensor updateMemoryWhole(BatchInputs in) {
    return updater == null ? null : updater.updateWhole(in.memoryReads);
  }

  /**
   * Whether the memory update computes the same values each time from the same inputs in training
   * mode: no dropout in the updater (the GRU and RNN updaters never have any; the mail-attention
   * updater has unless dropout and attention dropout are 0). A large batch on one device then
   * updates its micro-batches without gradient and recomputes their update once with gradient in
   * its training pass ({@code step.DeviceStep}).
   */
  public boolean memoryUpdateIsDeterministic() {
    return config.memory().updater() != MemoryConfig.Updater.TRANSFORMER
        || (config.train().dropout() == 0 && config.train().attentionDropout() == 0);
  }

  /**
   * As {@link #updateMemory(BatchInputs, StreamParts)}, written into {@code out} ({@code [U,
   * dim]}), without gradient: one part of an update shared by several plans.
   */
  public void updateMemoryInto(BatchInputs in, StreamParts parts, Tensor out) {
    updater.updateInto(in.memoryReads, parts, out);
  }

  /**
   * Embeddings of the batch's roots {@code [R, dimOut]}, from its inputs and its updated memory
   * (null for memory-less models).
   */
  public Tensor embed(BatchInputs in, Tensor updatedMemory) {
    return embed(in, updatedMemory, null);
  }

  /**
   * As {@link #embed(BatchInputs, Tensor)}, the attention layers' stream parts kept in (or taken
   * from) {@code streamParts} when it is not null: a second pass over the same plan with other
   * memory, without gradient.
   */
  public Tensor embed(BatchInputs in, Tensor updatedMemory, StreamParts streamParts) {
    Tensor inputTable = updatedMemory;
    if (updatedMemory != null && in.readNodeFeatures != null) {
      Tensor f =
          nodeFeatureMap != null
              ? nodeFeatureMap.forward(in.readNodeFeatures)
              : in.readNodeFeatures;
      inputTable = updatedMemory.add(f);
    }
    if (layers.isEmpty()) {
      Tensor embedding = identityNorm.forward(inputTable.index_select(0, in.rootReads));
      return jodie != null ? jodie.forward(embedding, in.jodieDelta) : embedding;
    }
    List<Tensor> perSnapshot = new ArrayList<>();
    for (int h = 0; h < in.snapshots.size(); h++) {
      BatchInputs.SnapshotTensors s = in.snapshots.get(h);
      perSnapshot.add(
          embedSnapshot(s, updatedMemory != null ? inputTable : s.nodeTable(), h, streamParts));
    }
    return combiner != null ? combiner.forward(perSnapshot) : perSnapshot.get(0);
  }

  /**
   * Positive and negative logits of {@code eventCount} events from their roots' embeddings laid out
   * {@code [src | dst | negatives]}.
   */
  public EdgePredictor.Scores predict(Tensor rootEmbeddings, int eventCount) {
    return predictor.forward(rootEmbeddings, eventCount);
  }

  /** Runs the attention layers of one snapshot; returns the roots' embeddings {@code [R, dim]}. */
  private Tensor embedSnapshot(
      BatchInputs.SnapshotTensors s, Tensor inputTable, int snapshot, StreamParts streamParts) {
    Tensor h = inputTable; // layer 1 reads the input table through row indices
    for (int l = 0; l < layers.size(); l++) {
      BatchInputs.LayerTensors lt = s.layers().get(l);
      Tensor targets =
          h == null
              ? null
              : lt.targetRows() == null
                  ? h.narrow(0, 0, lt.targetCount())
                  : h.index_select(0, lt.targetRows());
      AttentionInputs in =
          new AttentionInputs(
              targets,
              h,
              lt.sourceIndex(),
              lt.edgeFeatures(),
              lt.edgeRow(),
              lt.sinceEdge(),
              lt.targetIndex(),
              lt.slot(),
              lt.targetCount(),
              lt.fanout(),
              streamParts);
      h = layers.get(l).get(snapshot).forward(in);
    }
    return h;
  }
}
