package dev.depbloom.model.config;

/**
 * TGL's {@code gnn} section: how a root's embedding is computed from its inputs.
 *
 * @param arch temporal attention over sampled neighbors, or identity (memory only)
 * @param layers attention layers (equal to the sampling layers); 1 for identity
 * @param attentionHeads heads per attention layer ({@code att_head})
 * @param dimTime width of the attention's time encoding (0: no time, as DySAT)
 * @param dimOut embedding width
 * @param timeTransform JODIE's time projection {@code h * (1 + w * dt)} on the identity embedding
 * @param combine how per-snapshot embeddings are combined (DySAT: an RNN)
 */
public record GnnConfig(
    Arch arch,
    int layers,
    int attentionHeads,
    int dimTime,
    int dimOut,
    TimeTransform timeTransform,
    Combine combine) {

  /** The time encoding's width when a config does not give one (TGL's). */
  public static final int DEFAULT_DIM_TIME = 100;

  /** Embedding architecture. */
  public enum Arch {
    TRANSFORMER_ATTENTION,
    IDENTITY
  }

  /** Optional time projection of the identity embedding. */
  public enum TimeTransform {
    NONE,
    JODIE
  }

  /** How snapshot embeddings are merged when sampling has several snapshots. */
  public enum Combine {
    NONE,
    RNN
  }

  static GnnConfig read(SectionReader r, int memoryDim) {
    r.ignore("use_src_emb", "use_dst_emb");
    Arch arch = r.choice("arch", Arch.class, Arch.TRANSFORMER_ATTENTION);
    int layers = r.positiveInt("layer", 1);
    int heads = r.positiveInt("att_head", 2);
    int dimTime = r.nonNegativeInt("dim_time", DEFAULT_DIM_TIME);
    int dimOut = r.positiveInt("dim_out", memoryDim > 0 ? memoryDim : 100);
    TimeTransform tt = r.choice("time_transform", TimeTransform.class, TimeTransform.NONE);
    Combine combine = r.choice("combine", Combine.class, Combine.NONE);
    r.finish();
    if (arch == Arch.IDENTITY) {
      layers = 1;
      if (memoryDim > 0) {
        dimOut = memoryDim;
      }
    } else if (dimOut % heads != 0) {
      throw r.error("att_head", heads + " heads do not divide dim_out " + dimOut);
    }
    return new GnnConfig(arch, layers, heads, dimTime, dimOut, tt, combine);
  }

  /** This section with a time encoding of width {@code width}. */
  public GnnConfig withDimTime(int width) {
    return new GnnConfig(arch, layers, attentionHeads, width, dimOut, timeTransform, combine);
  }
}
