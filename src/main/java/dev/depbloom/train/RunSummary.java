package dev.depbloom.train;

import dev.depbloom.eval.TestMetrics;
import java.util.List;

/** The outcome of a run: every epoch's metrics, the best epoch and the test metrics. */
public record RunSummary(List<EpochMetrics> epochs, int bestEpoch, TestMetrics test) {
  public RunSummary {
    epochs = List.copyOf(epochs);
  }

  public double lastValAp() {
    return epochs.isEmpty() ? Double.NaN : epochs.get(epochs.size() - 1).valAp();
  }

  public double bestValAp() {
    return epochs.stream().mapToDouble(EpochMetrics::valAp).max().orElse(Double.NaN);
  }

  /** Training events per second over all epochs: total events over total training seconds. */
  public double trainEventsPerSecond() {
    long events = 0;
    double seconds = 0;
    for (EpochMetrics e : epochs) {
      events += e.trainEvents();
      seconds += e.trainSeconds();
    }
    return seconds > 0 ? events / seconds : Double.NaN;
  }
}
