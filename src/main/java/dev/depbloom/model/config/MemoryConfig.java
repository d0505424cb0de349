package dev.depbloom.model.config;

/**
 * TGL's {@code memory} section: the per-node memory, its mailbox and how it is updated.
 *
 * @param enabled false for memory-less models (TGL's {@code type: 'none'}: TGAT, DySAT)
 * @param dim memory width ({@code dim_out})
 * @param dimTime width of the updater's time encoding ({@code dim_time}, 0 for none)
 * @param deliverTo who receives an event's mail: the endpoints themselves, or also their sampled
 *     neighbors (APAN)
 * @param updater how mail updates memory
 * @param mailboxSize mails kept per node (1, or 10 for APAN); a ring buffer
 * @param combineNodeFeature add node features to the updated memory (when the data has them)
 * @param attentionHeads heads of the transformer updater
 */
public record MemoryConfig(
    boolean enabled,
    int dim,
    int dimTime,
    Delivery deliverTo,
    Updater updater,
    int mailboxSize,
    boolean combineNodeFeature,
    int attentionHeads) {

  /** Receivers of an event's mail. */
  public enum Delivery {
    SELF,
    NEIGHBORS
  }

  /** The memory update function. */
  public enum Updater {
    GRU,
    RNN,
    TRANSFORMER
  }

  /** Kinds of memory TGL knows; only per-node memory exists. */
  enum Kind {
    NODE,
    NONE
  }

  /** How several mails to one node in one batch are combined (TGL: only {@code last}). */
  enum MailCombine {
    LAST
  }

  /**
   * Width of one mail: {@code [memory of the node || memory of the other endpoint || edge
   * features]}, TGL's mail for edge features of width {@code edgeFeatureDim}.
   */
  public int mailDim(int edgeFeatureDim) {
    return 2 * dim + edgeFeatureDim;
  }

  static MemoryConfig read(SectionReader r) {
    Kind kind = r.choice("type", Kind.class, Kind.NODE);
    if (kind == Kind.NONE) {
      r.ignore(
          "dim_out",
          "dim_time",
          "deliver_to",
          "mail_combine",
          "memory_update",
          "mailbox_size",
          "combine_node_feature",
          "attention_head");
      r.finish();
      return new MemoryConfig(false, 0, 0, Delivery.SELF, Updater.GRU, 1, false, 1);
    }
    int dim = r.positiveInt("dim_out", 100);
    int dimTime = r.nonNegativeInt("dim_time", 100);
    Delivery deliverTo = r.choice("deliver_to", Delivery.class, Delivery.SELF);
    r.choice("mail_combine", MailCombine.class, MailCombine.LAST);
    Updater updater = r.choice("memory_update", Updater.class, Updater.GRU);
    int mailboxSize = r.positiveInt("mailbox_size", 1);
    boolean combine = r.bool("combine_node_feature", true);
    int heads = r.positiveInt("attention_head", 2);
    r.finish();
    if (updater != Updater.TRANSFORMER && mailboxSize != 1) {
      throw r.error(
          "mailbox_size",
          "the "
              + updater.name().toLowerCase()
              + " updater reads one mail;"
              + " only the transformer updater reads a mailbox of "
              + mailboxSize);
    }
    if (updater == Updater.TRANSFORMER && dim % heads != 0) {
      throw r.error("attention_head", heads + " heads do not divide dim_out " + dim);
    }
    return new MemoryConfig(true, dim, dimTime, deliverTo, updater, mailboxSize, combine, heads);
  }
}
