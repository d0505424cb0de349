package dev.depbloom.train;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.observe.PhaseListener;

/** Receives a run's lifecycle events; progress bars and metric logs are listeners. */
public interface TrainingListener extends PhaseListener {
  default void epochFinished(EpochMetrics metrics) {}

  /**
   * A validation inside an epoch finished: training had reached stream position {@code position}
   * after {@code trainSeconds} of the epoch (validation time excluded), and {@code trainedEvents}
   * events since the run's start (every event trained counted each time: memory groups train each
   * event once per group).
   */
  default void checkFinished(
      int epoch, int position, long trainedEvents, double trainSeconds, double valAp) {}

  default void testFinished(TestMetrics metrics) {}
}
