package dev.depbloom.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.DeviceProjection;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code sequential}, {@code disttgl} at every (i, k) split of G, and {@code depbloom} with its
 * controls and ablations ({@link Candidates}), on the same data, model and seed (docs/schedules.md,
 * "Comparing schedules"; docs/projection.md): per row its validation and test AP, its events/s
 * measured here and projected (with this machine's costs, and on each GPU device model), and its
 * time to the target measured and projected. Every row is validated at the same amounts of trained
 * events ({@link dev.depbloom.train.Trainer#validateEvery}).
 *
 * <p><b>Converged</b> (the default): every row trains until its validation AP stops improving
 * ({@code patience} validations without a better one, at an epoch's end) or it has trained the cap,
 * at the learning rate of one stated grid ({@link LearningRateGrid}) that validates best; the
 * target is {@code sequential}'s best validation AP minus half a point. With {@code lrScreen > 0}
 * each rate of the grid first trains that many training splits and the best one is then trained to
 * convergence from the start. <b>Epochs</b>: every row trains a fixed number of epochs at its
 * schedule's own rate ({@code lr}, times G where it scales it), and the target is {@code
 * sequential}'s last validation AP minus half a point.
 */
public final class ScheduleComparison {
  /** Half a point of AP: the target is sequential's validation AP minus this. */
  public static final double TARGET_MARGIN = 0.005;

  /** How long rows train. */
  public enum Mode {
    /** Until validation stops improving, at the best learning rate of a grid. */
    CONVERGED,
    /** A fixed number of epochs at the schedule's own learning rate. */
    EPOCHS
  }

  /**
   * @param devices logical devices G of the compared schedules
   * @param mode converged or a fixed number of epochs
   * @param epochs epochs of every row ({@link Mode#EPOCHS})
   * @param checkEvery validations every this many training splits of trained events, and at every
   *     epoch's end
   * @param patience validations without a better AP after which a converged row stops (at an
   *     epoch's end)
   * @param maxTrained training splits of trained events after which a converged row stops
   * @param grid the learning rates a converged row chooses from
   * @param lrScreen training splits each rate of the grid trains before the best goes on (0: every
   *     rate trains to convergence)
   * @param link the interconnect of the projection with this machine's costs
   * @param gpus GPU device models every row is also projected onto
   * @param checkDevices G of the runs that check the projection against a measured run with one
   *     worker per device (0: none)
   * @param out folder of the rows' run folders
   * @param groups the row groups besides sequential
   * @param disttglK the disttgl rows' memory-group counts (empty: every divisor of G)
   * @param depbloomK the depbloom rows' micro-batch counts
   * @param only the labels of the rows to run (empty: every row of the groups); sequential runs
   *     anyway
   */
  public record Settings(
      int devices,
      Mode mode,
      int epochs,
      double checkEvery,
      int patience,
      double maxTrained,
      LearningRateGrid grid,
      double lrScreen,
      DeviceProjection.Link link,
      List<DeviceModel> gpus,
      int checkDevices,
      Path out,
      Set<Candidates.RowGroup> groups,
      Set<Integer> disttglK,
      Set<Integer> depbloomK,
      List<String> only) {}

  /** A learning-rate multiplier of the grid and the best validation AP it reached. */
  public record GridPoint(double multiplier, double bestValAp, long trainedEvents) {}

  /** One compared configuration: its chosen run, its grid, and its targets by clock. */
  public record Row(RowRun.Result run, List<GridPoint> grid, Map<String, Targets.Target> targets) {
    @JsonProperty
    public String label() {
      return run.candidate().label();
    }

    @JsonProperty
    public String schedule() {
      return run.candidate().schedule().label();
    }
  }

  /** The comparison: the target, the rows, and the runs that check the projection. */
  public record Result(Settings settings, double targetValAp, List<Row> rows, List<Row> checks) {}

  private ScheduleComparison() {}

  /** Runs every row on {@code base}'s data, model and seed; reports each row as it finishes. */
  public static Result run(TrainingRun base, Settings s, Consumer<Row> progress) {
    List<RowRun.Result> runs = new ArrayList<>();
    List<List<GridPoint>> grids = new ArrayList<>();
    int workers = base.threads().workers();
    int batchSize = base.config().model().train().batchSize();
    for (RowRun.Candidate c :
        Candidates.of(s.devices(), workers, s.groups(), s.disttglK(), s.depbloomK(), batchSize)) {
      if (!s.only().isEmpty() && !c.label().equals("sequential") && !s.only().contains(c.label())) {
        continue;
      }
      List<GridPoint> grid = new ArrayList<>();
      RowRun.Result r = s.mode() == Mode.EPOCHS ? epochs(base, s, c) : converged(base, s, c, grid);
      runs.add(r);
      grids.add(grid);
      progress.accept(new Row(r, grid, Map.of()));
    }
    RowRun.Result sequential = runs.get(0);
    double reference =
        s.mode() == Mode.EPOCHS
            ? sequential.validations().get(sequential.validations().size() - 1).valAp()
            : sequential.bestValAp();
    double target = reference - TARGET_MARGIN;
    List<RowRun.Result> checkRuns = new ArrayList<>();
    if (s.checkDevices() > 1) {
      for (RowRun.Candidate c : Candidates.checks(s.checkDevices())) {
        RowRun.Result r = epochs(base, s, c);
        checkRuns.add(r);
        progress.accept(new Row(r, List.of(), Map.of()));
      }
    }
    RowRun.Stop stop = s.mode() == Mode.EPOCHS ? epochsStop(s) : convergedStop(base, s);
    return new Result(
        s, target, rows(runs, grids, target, stop), rows(checkRuns, null, target, epochsStop(s)));
  }

  private static List<Row> rows(
      List<RowRun.Result> runs, List<List<GridPoint>> grids, double t, RowRun.Stop stop) {
    List<Map<String, Targets.Target>> targets = Targets.of(runs, t, stop);
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      out.add(new Row(runs.get(i), grids == null ? List.of() : grids.get(i), targets.get(i)));
    }
    return out;
  }

  /** A row trained {@code epochs} epochs at its schedule's own learning rate. */
  private static RowRun.Result epochs(TrainingRun base, Settings s, RowRun.Candidate c) {
    return RowRun.train(
        base,
        c,
        0,
        epochsStop(s),
        checkInterval(base, s.checkEvery()),
        s.link(),
        s.gpus(),
        s.out(),
        true);
  }

  /**
   * A row trained to convergence at the grid's best learning rate; {@code grid} receives every
   * rate's best validation AP (screened or trained to convergence).
   */
  private static RowRun.Result converged(
      TrainingRun base, Settings s, RowRun.Candidate c, List<GridPoint> grid) {
    List<Double> multipliers = s.grid().multipliers(c.schedule().devices());
    long every = checkInterval(base, s.checkEvery());
    RowRun.Stop toConvergence = convergedStop(base, s);
    boolean screen = s.lrScreen() > 0 && multipliers.size() > 1;
    RowRun.Result best = null;
    double bestMultiplier = multipliers.get(0);
    for (double m : multipliers) {
      Path where = s.out().resolve(screen ? "screens/lr-x" + m : "grid/lr-x" + m);
      RowRun.Result r =
          screen
              ? RowRun.train(
                  base,
                  c,
                  m,
                  RowRun.Stop.converged(Integer.MAX_VALUE, checkInterval(base, s.lrScreen())),
                  every,
                  s.link(),
                  List.of(),
                  where,
                  false)
              : RowRun.train(base, c, m, toConvergence, every, s.link(), s.gpus(), where, true);
      grid.add(new GridPoint(m, r.bestValAp(), r.trainedEvents()));
      if (best == null || r.bestValAp() > best.bestValAp()) {
        best = r;
        bestMultiplier = m;
      }
    }
    if (!screen) {
      return best;
    }
    return RowRun.train(
        base, c, bestMultiplier, toConvergence, every, s.link(), s.gpus(), s.out(), true);
  }

  /** A row of {@code --mode epochs}: its epochs, no patience, no cap. */
  private static RowRun.Stop epochsStop(Settings s) {
    return RowRun.Stop.epochs(s.epochs());
  }

  /** A converged row: patience, or the cap of trained events. */
  private static RowRun.Stop convergedStop(TrainingRun base, Settings s) {
    return RowRun.Stop.converged(s.patience(), checkInterval(base, s.maxTrained()));
  }

  /** Trained events in {@code splits} training splits (at least one event). */
  private static long checkInterval(TrainingRun base, double splits) {
    return Math.max(1, Math.round(splits * base.split().trainEnd()));
  }
}
