package dev.depbloom.projection;

/**
 * How {@link GpuRoundModel} prices a memory kept in host memory behind a daemon (DistTGL's
 * placement; docs/projection.md, "DistTGL as its code runs"). {@link #DISTTGL} is what DistTGL's
 * code does (amazon-science/disttgl {@code train.py}, {@code utils.py}, {@code memorys.py}); each
 * other combination switches one of its rules off, so that a rule's share of DistTGL's projected
 * time can be measured ({@code LargeBatchProjection}'s DistTGL table).
 *
 * @param perSampledEdgeFeatures edge features gathered and copied once per sampled edge, duplicates
 *     included ({@code prepare_input}); else each distinct edge's once
 * @param pageableInputs the mini-batch copied in through pageable memory ({@code mfg.to} in {@code
 *     mfg_to_cuda}); else through pinned memory
 * @param touchedWrites a trainer's write copied ({@code copy_}) into the shared write buffers the
 *     run creates once, memory touched before; else into freshly allocated pageable memory
 * @param overlapped DistTGL's order: the write is copied out after the memory update, before the
 *     embedding and backward pass, and the daemon applies the group's writes and gathers the next
 *     round's reads, rank after rank, while the trainers finish their pass, all-reduce and step;
 *     else the daemon gathers before the trainers start and applies after they end
 * @param readFactor memory and mailbox rows read, relative to the batch's distinct nodes (DistTGL
 *     deduplicates its positive and negative graphs apart: 1.22 on Wikipedia with TGN's 10
 *     neighbours, 1.57 on email-Eu, {@code bench/disttgl-read-rows.py}); 1 charges distinct rows
 */
public record DaemonRules(
    boolean perSampledEdgeFeatures,
    boolean pageableInputs,
    boolean touchedWrites,
    boolean overlapped,
    double readFactor) {
  /** DistTGL's code, reads counted as distinct nodes (the one difference left, bounded apart). */
  public static final DaemonRules DISTTGL = new DaemonRules(true, true, true, true, 1.0);

  /** The rules this project priced DistTGL by until 2026-12-06, for comparison. */
  public static final DaemonRules UNTIL_2026_12_06 = new DaemonRules(false, false, false, false, 1);

  public DaemonRules {
    if (!(readFactor >= 1)) {
      throw new IllegalArgumentException("readFactor must be at least 1, got " + readFactor);
    }
  }
}
