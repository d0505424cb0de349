package dev.depbloom.train;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.observe.PhaseListener;

/** Receives a run's lifecycle events; progress bars and metric logs are listeners. */
public interface TrainingListener extends PhaseListener {
  default void epochFinished(EpochMetrics metrics) {}

  /**
   * A validation inside an epoch finished: training had reached stream position {@code position}
   * after {@code trainSeconds} of the epoch (validation time excluded).
   */
  default void checkFinished(int epoch, int position, double trainSeconds, double valAp) {}

  default void testFinished(TestMetrics metrics) {}
}
