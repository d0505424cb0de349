package dev.depbloom.train;

/**
 * What one process of a multi-process run sent in an epoch's training pass, by kind (counted as a
 * ring algorithm sends it), and the checksum of its parameters after the epoch — equal on every
 * rank, or the run stops.
 *
 * @param gradientBytes the rounds' gradient all-reduces
 * @param memoryBytes the rounds' memory writes, or the windows' final rows
 * @param otherBytes losses, sizes before variable-size gathers, barriers
 */
public record RankMetrics(
    int rank, long gradientBytes, long memoryBytes, long otherBytes, String parameterChecksum) {
  public long bytesSent() {
    return gradientBytes + memoryBytes + otherBytes;
  }
}
