package dev.depbloom.bench;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.observe.DeviceProjection;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.EpochMetrics;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.Schedules;
import dev.depbloom.train.Trainer;
import dev.depbloom.train.TrainingListener;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code sequential}, {@code disttgl} at every (i, k) split of G, and {@code depbloom} with its
 * ablations, on the same data, model, seed and epochs (DESIGN.md sections 3 and 5): validation and
 * test AP, events/s measured here, events/s projected to G real devices ({@link DeviceProjection}),
 * and the time to reach the target validation AP ({@code sequential}'s final validation AP minus
 * 0.5 points, checked at every validation: {@link Settings#validationsPerEpoch} per epoch, the last
 * at the epoch's end) measured and projected — the fair measure when schedules do different work
 * per epoch, as DistTGL's memory groups do. The speedup of a row is the fastest {@code disttgl}
 * row's projected time to target over the row's.
 */
public final class ScheduleComparison {
  /** Half a point of AP: the target is sequential's final validation AP minus this. */
  public static final double TARGET_MARGIN = 0.005;

  /**
   * @param devices logical devices G of the compared schedules
   * @param epochs training epochs of every row
   * @param link the interconnect of the projection
   * @param checkDevices G of the runs that check the projection against a measured run with one
   *     worker per device (0: none)
   * @param out folder of the rows' run folders
   * @param validationsPerEpoch validations per epoch, the last at its end ({@link
   *     Trainer#validationsPerEpoch}): the time to target is known to within an epoch over this
   */
  public record Settings(
      int devices,
      int epochs,
      DeviceProjection.Link link,
      int checkDevices,
      Path out,
      Set<RowGroup> groups,
      Set<Integer> disttglK,
      int validationsPerEpoch) {}

  /**
   * The groups of rows a comparison can run; {@code sequential} always runs, since its final
   * validation AP sets the target.
   */
  public enum RowGroup {
    /** {@code disttgl} at every (i, k) split of G. */
    DISTTGL,
    /**
     * {@code depbloom} with the profile's choice, alone and in M = 2, 4, ... &lt; G memory groups
     * (the profile choosing inside each group of G / M devices).
     */
    DEPBLOOM,
    /**
     * The same {@code depbloom} rows with window-start prefill ({@code schedule.prefill}:
     * contiguous chains, each starting from the replayed memory of the chains before it).
     */
    PREFILL,
    /** {@code depbloom}'s ablations: partitioning only, refinement only, no critical path. */
    ABLATIONS;

    /** The group of a name as the command line spells it. */
    public static RowGroup of(String name) {
      for (RowGroup g : values()) {
        if (g.name().equalsIgnoreCase(name.trim())) {
          return g;
        }
      }
      throw new IllegalArgumentException(
          "unknown row group '" + name + "' (disttgl, depbloom, prefill, ablations)");
    }
  }

  /** Validation after an epoch: cumulative training seconds, measured and projected. */
  public record EpochPoint(int epoch, double trainSeconds, double projectedSeconds, double valAp) {}

  /**
   * A validation inside epoch {@code epoch} or at its end, training having reached stream position
   * {@code position}: cumulative training seconds, measured and projected.
   */
  public record ValidationPoint(
      int epoch, int position, double trainSeconds, double projectedSeconds, double valAp) {}

  /**
   * One compared configuration and what it measured. The time to target is the first validation at
   * or above the target; the <em>sustained</em> one (projected only) the validation from which
   * every later one stays at or above it, so a curve that touches the target and falls back below
   * it is not counted as there until it stays.
   */
  public record Row(
      String schedule,
      String label,
      String describe,
      int devices,
      int workers,
      double valAp,
      double testAp,
      double eventsPerSecond,
      double projectedEventsPerSecond,
      double projectedOnThisMachineEventsPerSecond,
      Double timeToTargetSeconds,
      Double projectedTimeToTargetSeconds,
      Double speedupOverDisttgl,
      Double projectedSustainedTimeToTargetSeconds,
      Double sustainedSpeedupOverDisttgl,
      List<EpochPoint> epochs,
      List<ValidationPoint> validations) {

    /** This row with its times to target and speedups (null: never reached, or no disttgl did). */
    Row withTargets(
        Double measured, Double projected, Double speedup, Double sustained, Double sustainedUp) {
      return new Row(
          schedule,
          label,
          describe,
          devices,
          workers,
          valAp,
          testAp,
          eventsPerSecond,
          projectedEventsPerSecond,
          projectedOnThisMachineEventsPerSecond,
          measured,
          projected,
          speedup,
          sustained,
          sustainedUp,
          epochs,
          validations);
    }
  }

  /** The comparison, and the runs that check the projection. */
  public record Result(double targetValAp, List<Row> rows, List<Row> checks) {}

  /** A configuration to compare. */
  record Candidate(String label, ScheduleConfig schedule, int workers) {}

  private ScheduleComparison() {}

  /**
   * The rows of a comparison at G devices; {@code disttglK} limits the disttgl rows to those
   * memory-group counts k (empty: every divisor of G).
   */
  static List<Candidate> candidates(
      int devices, int workers, Set<RowGroup> groups, Set<Integer> disttglK) {
    List<Candidate> c = new ArrayList<>();
    c.add(new Candidate("sequential", ScheduleConfig.SEQUENTIAL, workers));
    for (int k = 1; k <= devices; k++) {
      if (groups.contains(RowGroup.DISTTGL)
          && devices % k == 0
          && (disttglK.isEmpty() || disttglK.contains(k))) {
        c.add(
            new Candidate(
                "disttgl i=" + devices / k + " k=" + k,
                ScheduleConfig.disttgl(devices / k, k, true),
                workers));
      }
    }
    if (groups.contains(RowGroup.DEPBLOOM)) {
      addProfiledRows(c, "depbloom", devices, workers, false);
    }
    if (groups.contains(RowGroup.PREFILL)) {
      addProfiledRows(c, "depbloom prefill", devices, workers, true);
    }
    if (!groups.contains(RowGroup.ABLATIONS)) {
      return c;
    }
    c.add(
        new Candidate(
            "depbloom partitioning only",
            ScheduleConfig.depbloom(1, 0, null, devices, 1, false, false, true),
            workers));
    c.add(
        new Candidate(
            "depbloom refinement only",
            ScheduleConfig.depbloom(
                1, 0, PartitionerKind.CONTIGUOUS, 1, devices, true, false, true),
            workers));
    c.add(new Candidate("depbloom no critical path", profiled(devices, true, false), workers));
    return c;
  }

  /**
   * The rows {@code label} (the profile's choice on all G devices) and {@code label M=m} for M = 2,
   * 4, ... dividing G, up to G / 2 (memory groups, one per machine, as DistTGL's k: every event
   * trained M times per epoch), with window-start prefill or without.
   */
  private static void addProfiledRows(
      List<Candidate> c, String label, int devices, int workers, boolean prefill) {
    c.add(new Candidate(label, profiled(devices, true, true).withPrefill(prefill), workers));
    for (int m = 2; m <= devices / 2; m *= 2) {
      if (devices % m == 0) {
        c.add(
            new Candidate(
                label + " M=" + m, profiled(devices, m, true, true).withPrefill(prefill), workers));
      }
    }
  }

  /** A depbloom config whose window, partitioner, chains and micro-batches the profile chooses. */
  private static ScheduleConfig.DepBloom profiled(
      int devices, boolean refine, boolean criticalPath) {
    return profiled(devices, 1, refine, criticalPath);
  }

  /** The same in {@code groups} memory groups, the profile choosing inside each. */
  private static ScheduleConfig.DepBloom profiled(
      int devices, int groups, boolean refine, boolean criticalPath) {
    return ScheduleConfig.DepBloom.unresolved(
        devices, groups, new ScheduleConfig.DepBloom.Techniques(refine, criticalPath, false), true);
  }

  /** Runs every row on {@code base}'s data, model and seed; reports each row as it finishes. */
  public static Result run(TrainingRun base, Settings s, Consumer<Row> progress) {
    int workers = base.threads().workers();
    List<Row> rows = new ArrayList<>();
    for (Candidate c : candidates(s.devices(), workers, s.groups(), s.disttglK())) {
      Row r = row(base, s, c);
      rows.add(r);
      progress.accept(r);
    }
    double target = rows.get(0).valAp() - TARGET_MARGIN;
    rows = withTargets(rows, target);
    List<Row> checks = new ArrayList<>();
    if (s.checkDevices() > 1) {
      for (Candidate c :
          List.of(
              new Candidate(
                  "check disttgl i=" + s.checkDevices(),
                  ScheduleConfig.disttgl(s.checkDevices(), 1, true),
                  s.checkDevices()),
              new Candidate(
                  "check depbloom", profiled(s.checkDevices(), true, true), s.checkDevices()))) {
        Row r = row(base, s, c);
        checks.add(r);
        progress.accept(r);
      }
    }
    return new Result(target, rows, withTargets(checks, target));
  }

  private static Row row(TrainingRun base, Settings s, Candidate c) {
    ScheduleConfig resolved =
        Schedules.resolve(
                c.schedule(), base.events(), base.split(), base.model().train().batchSize())
            .config();
    RunConfig config = base.config().withSchedule(resolved);
    ThreadBudget t = base.threads();
    TrainingRun run =
        new TrainingRun(
            base.events(),
            base.dataSource(),
            base.split(),
            config,
            base.seed(),
            new ThreadBudget(t.intraOp(), t.blas(), c.workers()),
            base.samplerThreads());
    List<EpochPoint> points = new ArrayList<>();
    List<ValidationPoint> validations = new ArrayList<>();
    try (Trainer trainer = new Trainer(run)) {
      trainer.validationsPerEpoch(s.validationsPerEpoch());
      DeviceProjection projection =
          new DeviceProjection(
              resolved.devices(),
              4L * trainer.parameterCount(),
              s.link(),
              trainer.schedule().memoryPlacement());
      trainer.observe(projection);
      double[] trained = {0};
      long[] events = {0};
      trainer.addListener(
          new TrainingListener() {
            @Override
            public void checkFinished(int epoch, int position, double seconds, double valAp) {
              validations.add(
                  new ValidationPoint(
                      epoch, position, trained[0] + seconds, projection.seconds(), valAp));
            }

            @Override
            public void epochFinished(EpochMetrics m) {
              trained[0] += m.trainSeconds();
              events[0] += m.trainEvents();
              points.add(new EpochPoint(m.epoch(), trained[0], projection.seconds(), m.valAp()));
              validations.add(
                  new ValidationPoint(
                      m.epoch(),
                      base.split().trainEnd(),
                      trained[0],
                      projection.seconds(),
                      m.valAp()));
            }
          });
      RunDirectory dir =
          RunDirectory.create(s.out().resolve(c.label().replace(' ', '-').replace("=", "")));
      trainer.fit(dir, List.of(), 0);
      TestMetrics test = trainer.test(dir, dir.readState().bestEpoch());
      return new Row(
          resolved.label(),
          c.label(),
          trainer.schedule().describe(),
          resolved.devices(),
          c.workers(),
          points.get(points.size() - 1).valAp(),
          test.reset().ap(),
          events[0] / trained[0],
          events[0] / projection.seconds(),
          events[0] / projection.measuredLink(),
          null,
          null,
          null,
          null,
          null,
          List.copyOf(points),
          List.copyOf(validations));
    }
  }

  /**
   * The rows with their times to target (first and sustained, see {@link Row}) and their speedups
   * over the fastest disttgl row by the same measure.
   */
  static List<Row> withTargets(List<Row> rows, double target) {
    Double bestFirst = null;
    Double bestSustained = null;
    List<ValidationPoint[]> hits = new ArrayList<>(); // per row: first, sustained
    for (Row r : rows) {
      ValidationPoint first = null;
      for (ValidationPoint p : r.validations()) {
        if (p.valAp() >= target) {
          first = p;
          break;
        }
      }
      ValidationPoint sustained = null;
      for (int i = r.validations().size() - 1; i >= 0; i--) {
        if (r.validations().get(i).valAp() < target) {
          break;
        }
        sustained = r.validations().get(i);
      }
      hits.add(new ValidationPoint[] {first, sustained});
      if (r.schedule().equals("disttgl")) {
        bestFirst = fastest(bestFirst, first);
        bestSustained = fastest(bestSustained, sustained);
      }
    }
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      ValidationPoint first = hits.get(i)[0];
      ValidationPoint sustained = hits.get(i)[1];
      out.add(
          rows.get(i)
              .withTargets(
                  first == null ? null : first.trainSeconds(),
                  first == null ? null : first.projectedSeconds(),
                  speedup(bestFirst, first),
                  sustained == null ? null : sustained.projectedSeconds(),
                  speedup(bestSustained, sustained)));
    }
    return out;
  }

  private static Double fastest(Double best, ValidationPoint p) {
    if (p == null) {
      return best;
    }
    return best == null ? p.projectedSeconds() : Math.min(best, p.projectedSeconds());
  }

  private static Double speedup(Double best, ValidationPoint p) {
    return best == null || p == null ? null : best / p.projectedSeconds();
  }
}
