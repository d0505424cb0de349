package dev.depbloom.bench;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.model.config.TrainConfig;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.DeviceProjection;
import dev.depbloom.projection.GpuProjection;
import dev.depbloom.projection.RoundTime;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.EpochMetrics;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.Trainer;
import dev.depbloom.train.TrainingListener;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of a comparison trained once (docs/schedules.md, "Comparing schedules"): a schedule at
 * one learning rate, with validations at equal amounts of training ({@link Trainer#validateEvery})
 * and at every epoch's end, each validation point carrying the training seconds measured here and
 * projected (this machine's costs on G devices, {@link DeviceProjection}; and each GPU device
 * model, {@link GpuProjection}, from the kernels recorded in the first epoch). A run either trains
 * a fixed number of epochs or until it converges: it stops at the first epoch's end where its best
 * validation AP has not improved for {@code patience} validations, or where it has trained the cap;
 * a run that is not tested (a learning-rate screen) may stop at any validation, inside an epoch
 * too.
 */
public final class RowRun {
  private RowRun() {}

  /** A configuration to train. */
  public record Candidate(String label, ScheduleConfig schedule, int workers) {}

  /**
   * How long a row trains: {@code epochs} epochs, or (converged) until {@code patience} validations
   * without a better AP or {@code maxTrainedEvents} events trained.
   */
  public record Stop(int epochs, int patience, long maxTrainedEvents) {
    static Stop epochs(int n) {
      return new Stop(n, Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    static Stop converged(int patience, long maxTrainedEvents) {
      return new Stop(100_000, patience, maxTrainedEvents);
    }
  }

  /**
   * A validation: inside an epoch (a check) or at its end, after {@code trainedEvents} events
   * (since the run's start), {@code trainSeconds} measured here, {@code projectedSeconds} on G
   * devices with this machine's costs, {@code gpuSeconds} per GPU device model.
   */
  public record ValidationPoint(
      int epoch,
      int position,
      long trainedEvents,
      double trainSeconds,
      double projectedSeconds,
      Map<String, Double> gpuSeconds,
      double valAp) {}

  /**
   * What a row's training did. {@code testAp} (TGL's protocol) and {@code testApContinued} are of
   * its best epoch's checkpoint, or NaN when it was not tested (a learning-rate screen).
   */
  public record Result(
      Candidate candidate,
      String describe,
      int devices,
      int workers,
      double lrMultiplier,
      double learningRate,
      double bestValAp,
      double testAp,
      double testApContinued,
      long trainedEvents,
      double trainSeconds,
      double projectedSeconds,
      double measuredLinkSeconds,
      Map<String, RoundTime> gpu,
      List<ValidationPoint> validations) {}

  /**
   * Trains {@code c} on {@code base}'s data, model and seed. A {@code lrMultiplier} of 0 keeps the
   * schedule's own rate (the configured one, times G where it scales it); otherwise the rate is the
   * configured one times the multiplier, unscaled. {@code test} says whether to test the best
   * epoch. GPU device models are priced from epoch 1's recorded kernels; with any, a row runs on at
   * most G workers (a logical device's item unsharded, as one GPU runs it).
   */
  static Result train(
      TrainingRun base,
      Candidate c,
      double lrMultiplier,
      Stop stop,
      long checkEvery,
      DeviceProjection.Link link,
      List<DeviceModel> gpus,
      Path out,
      boolean test) {
    ScheduleConfig schedule = resolvedSchedule(base, c, lrMultiplier);
    TrainConfig train = base.model().train().withEpochs(stop.epochs());
    if (lrMultiplier > 0) {
      train = train.withLearningRate(train.learningRate() * lrMultiplier);
    }
    RunConfig config =
        base.config().withSchedule(schedule).withModel(base.model().withTrain(train));
    int workers = gpus.isEmpty() ? c.workers() : Math.min(c.workers(), schedule.devices());
    TrainingRun run = rerun(base, config, workers);
    try (Trainer trainer = new Trainer(run)) {
      trainer.validateEvery(checkEvery);
      DeviceProjection measured =
          new DeviceProjection(
              schedule.devices(),
              4L * trainer.parameterCount(),
              link,
              trainer.schedule().memoryPlacement());
      Map<String, GpuProjection> projections = gpuProjections(gpus, trainer, schedule.devices());
      trainer.observe(
          costs -> {
            measured.roundFinished(costs);
            projections.values().forEach(p -> p.roundFinished(costs));
          },
          gpus.isEmpty() ? 0 : 1);
      Points points = new Points(measured, projections);
      trainer.addListener(points);
      trainer.stopWhen(() -> points.stopsAt(stop), !test);
      RunDirectory dir =
          RunDirectory.create(out.resolve(c.label().replace(' ', '-').replace("=", "")));
      trainer.fit(dir, List.of(), 0);
      TestMetrics tested = test ? trainer.test(dir, dir.readState().bestEpoch()) : null;
      Map<String, RoundTime> gpu = new LinkedHashMap<>();
      projections.forEach((name, p) -> gpu.put(name, p.breakdown()));
      return new Result(
          c,
          trainer.schedule().describe(),
          schedule.devices(),
          workers,
          lrMultiplier,
          schedule.learningRate(config.model().train().learningRate()),
          points.best(),
          tested == null ? Double.NaN : tested.reset().ap(),
          tested == null ? Double.NaN : tested.continued().ap(),
          points.trainedEvents,
          points.trainSeconds,
          measured.seconds(),
          measured.measuredLink(),
          gpu,
          List.copyOf(points.points));
    }
  }

  /**
   * {@code c}'s schedule resolved on {@code base}'s data; with a multiplier, one that does not
   * scale the learning rate.
   */
  private static ScheduleConfig resolvedSchedule(
      TrainingRun base, Candidate c, double lrMultiplier) {
    return ScheduleFamilies.resolve(
            lrMultiplier > 0 ? c.schedule().withScaleLearningRate(false) : c.schedule(),
            base.events(),
            base.split(),
            base.model().train().batchSize())
        .config();
  }

  /** {@code base}'s data, seed and threads with {@code config}, on {@code workers} workers. */
  private static TrainingRun rerun(TrainingRun base, RunConfig config, int workers) {
    ThreadBudget t = base.threads();
    return new TrainingRun(
        base.events(),
        base.dataSource(),
        base.split(),
        config,
        base.seed(),
        new ThreadBudget(t.intraOp(), t.blas(), workers),
        base.samplerThreads());
  }

  /** A projection per GPU device model, by its name, in the models' order. */
  private static Map<String, GpuProjection> gpuProjections(
      List<DeviceModel> gpus, Trainer trainer, int devices) {
    Map<String, GpuProjection> projections = new LinkedHashMap<>();
    for (DeviceModel m : gpus) {
      projections.put(
          m.name(), new GpuProjection(m, trainer.schedule().memoryPlacement(), devices));
    }
    return projections;
  }

  /** Collects the validation points of a run as they come. */
  private static final class Points implements TrainingListener {
    private final DeviceProjection measured;
    private final Map<String, GpuProjection> gpus;
    private final List<ValidationPoint> points = new ArrayList<>();
    private double trainSeconds; // of the finished epochs
    private long trainedEvents; // of the finished epochs

    Points(DeviceProjection measured, Map<String, GpuProjection> gpus) {
      this.measured = measured;
      this.gpus = gpus;
    }

    @Override
    public void checkFinished(
        int epoch, int position, long trained, double epochSeconds, double valAp) {
      add(epoch, position, trained, trainSeconds + epochSeconds, valAp);
    }

    @Override
    public void epochFinished(EpochMetrics m) {
      trainSeconds += m.trainSeconds();
      trainedEvents += m.trainEvents();
      add(m.epoch(), -1, trainedEvents, trainSeconds, m.valAp());
    }

    private void add(int epoch, int position, long trained, double seconds, double valAp) {
      Map<String, Double> gpu = new LinkedHashMap<>();
      gpus.forEach((name, p) -> gpu.put(name, p.seconds()));
      points.add(
          new ValidationPoint(epoch, position, trained, seconds, measured.seconds(), gpu, valAp));
    }

    double best() {
      return points.stream().mapToDouble(ValidationPoint::valAp).max().orElse(Double.NaN);
    }

    /** Whether training stops here under {@code stop}. */
    boolean stopsAt(Stop stop) {
      long trained = points.isEmpty() ? 0 : points.get(points.size() - 1).trainedEvents();
      if (trained >= stop.maxTrainedEvents()) {
        return true;
      }
      int sinceBest = 0;
      double best = Double.NEGATIVE_INFINITY;
      for (ValidationPoint p : points) {
        if (p.valAp() > best) {
          best = p.valAp();
          sinceBest = 0;
        } else {
          sinceBest++;
        }
      }
      return sinceBest >= stop.patience();
    }
  }
}
