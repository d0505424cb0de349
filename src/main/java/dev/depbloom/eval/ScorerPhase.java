package dev.depbloom.eval;

/**
 * The phases of {@link EventSliceScorer#replay} and {@link EventSliceScorer#score}, timed for
 * {@link EventSliceScorer#phaseSeconds()}.
 */
enum ScorerPhase {
  /** TGL's replay of the training and validation events ({@link EventSliceScorer#replay}). */
  REPLAY("replay"),
  /** Sampling and planning the slices (and the write). */
  PLAN("plan"),
  /** Sharing the slices' memory reads. */
  SHARE_READS("shareReads"),
  /** The shared memory update, per memory. */
  MEMORY_UPDATE("memoryUpdate"),
  /** Embedding and scoring the slices (all passes, all memories). */
  SCORE("score"),
  /** Writing the batch's memory. */
  MEMORY_WRITE("memoryWrite");

  final String key;

  ScorerPhase(String key) {
    this.key = key;
  }
}
