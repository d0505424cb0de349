package dev.depbloom.model.config;

/**
 * A model as TGL defines it: four orthogonal sections. The five published models (JODIE, TGN, APAN,
 * TGAT, DySAT) are five values of them; nothing else looks at a model's name. How a run's training
 * is spread over logical devices is a fifth section of the same file, {@code schedule}, which the
 * schedule layer reads (through {@link ConfigReader.Parsed}).
 */
public record ModelConfig(
    String name, SamplingConfig sampling, MemoryConfig memory, GnnConfig gnn, TrainConfig train) {

  /**
   * True when the first attention layer would have nothing to attend over on data with these
   * feature widths: no memory, no node or edge features and no time encoding (DySAT on a bare edge
   * list).
   */
  public boolean attentionHasNoInput(int nodeFeatureDim, int edgeFeatureDim) {
    int nodeInput = memory.enabled() ? memory.dim() : nodeFeatureDim;
    return gnn.arch() == GnnConfig.Arch.TRANSFORMER_ATTENTION
        && nodeInput + edgeFeatureDim + gnn.dimTime() == 0;
  }

  /** This config with another {@code train} section. */
  public ModelConfig withTrain(TrainConfig value) {
    return new ModelConfig(name, sampling, memory, gnn, value);
  }

  /** This config with another {@code gnn} section. */
  public ModelConfig withGnn(GnnConfig value) {
    return new ModelConfig(name, sampling, memory, value, train);
  }

  /** Cross-section rules, checked once all sections are read. */
  void validate(String source) {
    if (gnn.arch() == GnnConfig.Arch.TRANSFORMER_ATTENTION && sampling.layers() != gnn.layers()) {
      throw new ConfigException(
          source
              + ": gnn.layer is "
              + gnn.layers()
              + " but sampling has "
              + sampling.layers()
              + " layers; attention needs one sampled layer per gnn layer");
    }
    if (memory.deliverTo() == MemoryConfig.Delivery.NEIGHBORS && !sampling.enabled()) {
      throw new ConfigException(
          source
              + ": memory.deliver_to is 'neighbors' but sampling is off; neighbors come from"
              + " the sampler");
    }
    if (sampling.history() > 1 && gnn.combine() != GnnConfig.Combine.RNN) {
      throw new ConfigException(
          source
              + ": sampling.history is "
              + sampling.history()
              + " but gnn.combine is not 'rnn';"
              + " several snapshots need a combiner");
    }
    if (sampling.history() > 1 && memory.enabled()) {
      throw new ConfigException(
          source + ": snapshots (sampling.history > 1) are supported for memory-less models only");
    }
    if (!sampling.propTime() && sampling.history() > 1) {
      throw new ConfigException(
          source
              + ": sampling.prop_time is false but sampling.history is "
              + sampling.history()
              + "; with snapshots every layer is queried at the root's time (prop_time: true),"
              + " the only way snapshots are sampled here");
    }
    if (sampling.propTime() && sampling.history() == 1) {
      throw new ConfigException(
          source
              + ": sampling.prop_time is supported with snapshots (history > 1) only, where"
              + " every layer is queried at the root's time");
    }
    if (gnn.timeTransform() == GnnConfig.TimeTransform.JODIE && !memory.enabled()) {
      throw new ConfigException(
          source + ": gnn.time_transform 'jodie' projects memory; it needs memory.type 'node'");
    }
  }
}
