package dev.depbloom.observe;

/**
 * The stages of a training step, as the paper's per-stage breakdown (Figures 3 and 18) names them.
 * {@link #key()} is the name used in metrics files.
 */
public enum Stage {
  /** Neighbor sampling and the batch plan. */
  SAMPLE("sample"),
  /** Gathering memory, mail and features into tensors. */
  FETCH("fetch"),
  /** The memory updater's forward pass. */
  MEMORY_UPDATE("memoryUpdate"),
  /** Intra-batch memory refinement (DepBloom schedules). */
  REFINE("refine"),
  /**
   * A DepBloom window's prefill: its earlier chains' events replayed into the later chains' views
   * before the window's first round ({@code schedule.prefill}).
   */
  PREFILL("prefill"),
  /** Embedding, loss, backward and optimizer step. */
  TRAIN("train"),
  /** Applying the batch's memory write. */
  MEMORY_WRITE("memoryWrite"),
  /** Waiting on other devices (multi-device schedules). */
  SYNC("sync");

  private final String key;

  Stage(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }
}
