package dev.depbloom.projection;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.RoundWork;
import java.util.HashMap;
import java.util.Map;

/**
 * A run's rounds projected onto a GPU device model as they finish (docs/projection.md): each
 * round's recorded work priced by a {@link GpuRoundModel}. Only the first epoch's rounds need their
 * kernels recorded ({@code recording.RoundCostRecorder}'s {@code recordKernelsUpToEpoch}): a
 * round's shapes depend on the stream and the schedule alone, so a later epoch's round {@code r} is
 * priced with the kernels recorded for round {@code r} and its own traffic.
 */
public final class GpuProjection implements RoundObserver {
  private final GpuRoundModel model;
  private final Map<Integer, RoundWork> recorded = new HashMap<>(); // by round index
  private RoundTime total = RoundTime.ZERO;
  private double previousRound; // seconds, for the sampling that hides behind it
  private int rounds;

  /**
   * @param devices logical devices G (GPUs of the all-reduce)
   */
  public GpuProjection(DeviceModel model, MemoryPlacement placement, int devices) {
    this.model = new GpuRoundModel(model, placement, devices);
  }

  @Override
  public void roundFinished(RoundCosts c) {
    RoundWork w = c.work();
    if (kernelsRecorded(w)) {
      recorded.put(c.round(), w);
    } else {
      RoundWork kernels = recorded.get(c.round());
      if (kernels == null) {
        throw new IllegalStateException(
            "round "
                + c.round()
                + " has no recorded kernels: record at least the first epoch"
                + " (RoundCostRecorder's recordKernelsUpToEpoch)");
      }
      w = withKernelsOf(w, kernels);
    }
    if (c.round() == 0) {
      previousRound = 0;
    }
    RoundTime t = model.round(w, previousRound);
    previousRound = t.seconds();
    total = total.plus(t);
    rounds++;
  }

  /** Whether a round's work carries its kernels (a recorded round trains at least one kernel). */
  private static boolean kernelsRecorded(RoundWork w) {
    for (RoundWork.ItemWork i : w.items()) {
      if (i.train().size() > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code w}'s traffic and structure with the kernels recorded for its round earlier. Items are
   * matched by position: a round's items are the same devices in the same order every epoch.
   */
  private static RoundWork withKernelsOf(RoundWork w, RoundWork kernels) {
    if (w.items().size() != kernels.items().size()) {
      return kernels; // a round of another shape (cannot happen for a schedule's fixed plan)
    }
    java.util.List<RoundWork.ItemWork> items = new java.util.ArrayList<>();
    for (int k = 0; k < w.items().size(); k++) {
      RoundWork.ItemWork now = w.items().get(k);
      RoundWork.ItemWork then = kernels.items().get(k);
      items.add(
          new RoundWork.ItemWork(
              now.device(),
              now.view(),
              now.microBatch(),
              now.sampleNanos(),
              then.fetch(),
              then.memoryUpdate(),
              then.refine(),
              then.train(),
              then.memoryWrite(),
              now.memoryReadBytes(),
              now.inputBytes(),
              now.repeatedEdgeFeatureBytes(),
              now.writeBytes()));
    }
    return new RoundWork(
        w.round(),
        w.events(),
        items,
        kernels.optimizer(),
        w.gradientBytes(),
        kernels.commits(),
        w.merges(),
        kernels.prefills());
  }

  /** Projected seconds of every round so far. */
  public double seconds() {
    return total.seconds();
  }

  /** Where the projected seconds went, summed over the rounds so far. */
  public RoundTime breakdown() {
    return total;
  }

  public int rounds() {
    return rounds;
  }

  public DeviceModel deviceModel() {
    return model.model();
  }
}
