package dev.depbloom.device;

/**
 * What the bytes a process sends to the others carry, for {@link Collective#bytesSent}: counted as
 * a ring algorithm sends them — an all-reduce of {@code S} bytes over {@code W} ranks sends {@code
 * 2 (W - 1) / W * S} per rank, an all-gather of {@code C} bytes per rank (padded to the largest
 * rank's) sends {@code (W - 1) * C}.
 */
public enum Traffic {
  /** The round's gradients, one flat all-reduce. */
  GRADIENTS,
  /** The round's loss. */
  LOSS,
  /** Memory: a round's writes, or a window's final rows. */
  MEMORY,
  /** Sizes before variable-size gathers, epoch metrics, barriers. */
  CONTROL
}
