package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.step.BatchScores;

/**
 * Receives every scored batch of a test pass, in order (roots {@code [src | dst | AP negative |
 * ranking negatives]}, {@link TestNegatives}): what the protocols' metrics are computed from, for
 * whoever wants the scores themselves.
 */
@FunctionalInterface
public interface TestBatchListener {
  /** Listens to nothing. */
  TestBatchListener NONE = (batch, continued, tgl) -> {};

  /**
   * One test batch's scores under the continued protocol and TGL's (the same object for models
   * without memory, which have one protocol).
   */
  void batchScored(Batch batch, BatchScores continued, BatchScores tgl);
}
