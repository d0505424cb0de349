package dev.depbloom.profile;

/**
 * Which of a window's writes a chain reads before the window ends, for {@link LostDependencies}.
 * Both read everything written before the window from the window-start snapshot and merge every
 * chain's writes at the window's end.
 */
public enum ReadRule {
  /**
   * The rule as designed (docs/architecture.md, "Schedules on logical devices"): a chain reads the
   * rows of the nodes it owns as its own events write them, and every other node from the
   * window-start snapshot, even after writing it itself (its writes to other chains' nodes are
   * buffered until the window's end). A read of node v by event e in chain c sees the latest
   * earlier window write e' iff {@code chain(e') == c} and {@code owner(v) == c}.
   */
  OWNED_ROWS("owned-rows"),

  /**
   * A chain also reads its own buffered writes to other chains' nodes: it sees every row it has
   * written in the window, whoever owns it. A read sees e' iff {@code chain(e') == c}; ownership
   * then matters only for the cross-chain count. The design's measured figures
   * (docs/architecture.md, "The dependency profile": 8-11% lost for contiguous slicing) are
   * reproduced under this rule, not under {@link #OWNED_ROWS}.
   */
  OWN_WRITES("own-writes");

  private final String label;

  ReadRule(String label) {
    this.label = label;
  }

  /** The name the command line and JSON use. */
  public String label() {
    return label;
  }

  /** The rule named {@code label}, for the command line. */
  public static ReadRule byLabel(String label) {
    for (ReadRule r : values()) {
      if (r.label.equals(label)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown read rule '" + label + "': expected owned-rows or own-writes");
  }
}
