package dev.depbloom.bench;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.ZeroFeatureMatrix;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.recording.RoundCostRecorder;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRounds;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The work of one training epoch as this project records it (docs/projection.md, "Two inputs, kept
 * apart"): a model trained on one worker ({@code sequential}ly unless a schedule is given), every
 * round's kernels and traffic. What a calibration prices on a device model to compare with a
 * published time of the same model, batch and data.
 */
public final class WorkRecording {
  private WorkRecording() {}

  /**
   * The recorded rounds of the first epoch of {@code model} at batch {@code batchSize} on {@code
   * events} (zero edge features of width {@code edgeFeatureDim} added to data without them, as
   * WIKI's stand-in), at most {@code maxRounds} of them from the epoch's start (0: all), seed 0.
   */
  public static List<RoundWork> firstEpoch(
      EventStream events, String model, int batchSize, int edgeFeatureDim, int maxRounds) {
    return firstEpoch(
        events,
        model,
        Map.of("train.batch_size", String.valueOf(batchSize)),
        edgeFeatureDim,
        maxRounds);
  }

  /**
   * As {@link #firstEpoch(EventStream, String, int, int, int)}, the model's config with {@code
   * overrides} (section.key: value, the batch size and a resolved schedule included), on one worker
   * whatever the schedule's devices.
   */
  public static List<RoundWork> firstEpoch(
      EventStream events,
      String model,
      Map<String, String> overrides,
      int edgeFeatureDim,
      int maxRounds) {
    EventStream data =
        edgeFeatureDim > 0 && events.edgeFeatures().dim() == 0
            ? events.withEdgeFeatures(new ZeroFeatureMatrix(events.eventCount(), edgeFeatureDim))
            : events;
    Split split = Split.of(data);
    RunConfig config = RunConfig.zoo(model, overrides);
    TrainingRun run =
        new TrainingRun(data, "recorded", split, config, 0, new ThreadBudget(1, 1), 1);
    List<RoundWork> out = new ArrayList<>();
    try (TrainingRounds training = new TrainingRounds(run, new InProcessCollective())) {
      training.listen(new RoundCostRecorder(c -> out.add(c.work()), 1));
      training.session().replica().model().train(true);
      RoundRunner.EpochRounds epoch = training.epoch(1);
      List<RoundPlan> rounds = epoch.rounds();
      int n = maxRounds > 0 ? Math.min(maxRounds, rounds.size()) : rounds.size();
      while (epoch.nextIndex() < n) {
        epoch.runNext();
      }
      training.drain();
      // every round of the epoch, when only the first n were recorded: they stand for the rest
      for (int r = n; r < rounds.size(); r++) {
        out.add(out.get(r % n));
      }
    }
    return out;
  }
}
