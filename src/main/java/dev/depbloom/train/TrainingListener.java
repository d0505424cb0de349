package dev.depbloom.train;

import dev.depbloom.eval.TestMetrics;

/** Receives a run's lifecycle events; progress bars and metric logs are listeners. */
public interface TrainingListener {
  /** A pass over events {@code [from, to)} begins; {@code phase} is train, val, replay or test. */
  default void phaseStarted(String phase, int epoch, long events) {}

  /** A batch of a phase finished; {@code loss} is NaN outside training. */
  default void batchFinished(String phase, long eventsDone, double loss) {}

  default void phaseFinished(String phase) {}

  default void epochFinished(EpochMetrics metrics) {}

  /**
   * A validation inside an epoch finished: training had reached stream position {@code position}
   * after {@code trainSeconds} of the epoch (validation time excluded).
   */
  default void checkFinished(int epoch, int position, double trainSeconds, double valAp) {}

  default void testFinished(TestMetrics metrics) {}
}
