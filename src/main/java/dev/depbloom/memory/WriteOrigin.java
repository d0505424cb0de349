package dev.depbloom.memory;

/**
 * Where a memory write comes from. At a window-end merge a training write outranks a replay of the
 * same event ({@link MemoryStore#mergeLatest}).
 */
public enum WriteOrigin {
  /** A training round's write (or an evaluation's, which writes as training would). */
  TRAINING,
  /** A memory-only replay of events another view trains (DepBloom's prefill, a test's replay). */
  REPLAY
}
