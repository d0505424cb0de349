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
 * @param timeDelta which time interval the GRU or RNN updater encodes with a mail ({@link
 *     TimeDelta})
 */
public record MemoryConfig(
    boolean enabled,
    int dim,
    int dimTime,
    Delivery deliverTo,
    Updater updater,
    int mailboxSize,
    boolean combineNodeFeature,
    int attentionHeads,
    TimeDelta timeDelta) {

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

  /**
   * The time interval the GRU or RNN updater encodes next to a mail ({@code time_delta}).
   *
   * <ul>
   *   <li>{@code READ} (TGL's, the default): the read time minus the node's memory time, TGL's
   *       {@code ts - mem_ts}; a node read at two times is updated differently.
   *   <li>{@code MAIL} (the TGN paper's and DyGLib's message delta t): the interval the mail
   *       carries, its event's time minus the receiver's memory time when the mail was written. It
   *       is stored with the mail, as one more column, so the update does not depend on when the
   *       node is read; the read time reaches the embedding only through the embedding module
   *       (JODIE's time projection, the attention's time encoding).
   * </ul>
   */
  public enum TimeDelta {
    READ,
    MAIL
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
          "attention_head",
          "time_delta");
      r.finish();
      return new MemoryConfig(false, 0, 0, Delivery.SELF, Updater.GRU, 1, false, 1, TimeDelta.READ);
    }
    int dim = r.positiveInt("dim_out", 100);
    int dimTime = r.nonNegativeInt("dim_time", 100);
    Delivery deliverTo = r.choice("deliver_to", Delivery.class, Delivery.SELF);
    r.choice("mail_combine", MailCombine.class, MailCombine.LAST);
    Updater updater = r.choice("memory_update", Updater.class, Updater.GRU);
    int mailboxSize = r.positiveInt("mailbox_size", 1);
    boolean combine = r.bool("combine_node_feature", true);
    int heads = r.positiveInt("attention_head", 2);
    TimeDelta timeDelta = r.choice("time_delta", TimeDelta.class, TimeDelta.READ);
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
    if (timeDelta == TimeDelta.MAIL && updater == Updater.TRANSFORMER) {
      throw r.error(
          "time_delta",
          "'mail' is for the gru and rnn updaters; the transformer updater encodes each mail's"
              + " age itself");
    }
    return new MemoryConfig(
        true, dim, dimTime, deliverTo, updater, mailboxSize, combine, heads, timeDelta);
  }

  /**
   * Width of a stored mail for edge features of width {@code edgeFeatureDim}: {@code [memory'_self
   * || memory'_other || edgeFeature]}, plus the time-delta column with {@code time_delta: mail}.
   */
  public int mailDim(int edgeFeatureDim) {
    return 2 * dim + edgeFeatureDim + (timeDelta == TimeDelta.MAIL ? 1 : 0);
  }
}
