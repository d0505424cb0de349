package dev.depbloom.bench;

import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.RoundTime;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A {@link ScheduleComparison} as markdown: the rows' accuracy and learning rates, then their times
 * to the target under each clock — measured here, projected with this machine's costs, and
 * projected on each GPU device model, each in a table of its own and named so — then where each GPU
 * projection's time goes, and the assumptions the projections state.
 */
public final class ComparisonReport {
  private ComparisonReport() {}

  /** The whole report. */
  public static String markdown(ScheduleComparison.Result r) {
    ScheduleComparison.Settings s = r.settings();
    StringBuilder b = new StringBuilder();
    b.append(header(r)).append('\n');
    b.append(accuracy(r)).append('\n');
    if (r.rows().isEmpty()) {
      return b.toString();
    }
    for (String clock : Targets.clocks(r.rows().get(0).run())) {
      b.append(times(r, clock)).append('\n');
    }
    for (DeviceModel m : s.gpus()) {
      b.append(breakdown(r, m.name())).append('\n');
    }
    b.append(checks(r));
    b.append(assumptions(s));
    return b.toString();
  }

  private static String header(ScheduleComparison.Result r) {
    ScheduleComparison.Settings s = r.settings();
    String mode =
        s.mode() == ScheduleComparison.Mode.EPOCHS
            ? String.format(
                Locale.ROOT,
                "%d epochs per row at the schedule's own learning rate; target: sequential's last"
                    + " validation AP minus 0.5 points",
                s.epochs())
            : String.format(
                Locale.ROOT,
                "every row to convergence (stops at an epoch's end after %d validations without a"
                    + " better AP, or after %.1f training splits) at the best learning rate of %s"
                    + "%s; target: sequential's best validation AP minus 0.5 points; a row the"
                    + " cap ended before it had stayed at or above the target for %d validations"
                    + " has no time until it stays",
                s.patience(),
                s.maxTrained(),
                s.grid(),
                s.lrScreen() > 0
                    ? String.format(
                        Locale.ROOT,
                        " (each rate screened for %.1f training splits, the best trained from the"
                            + " start)",
                        s.lrScreen())
                    : "",
                s.patience());
    return String.format(
        Locale.ROOT,
        "G = %d. Mode: %s. Target validation AP %.4f. Every row is validated after every %.2f"
            + " training splits of trained events (at the first round where its validation memory"
            + " is whole) and at every epoch's end; a validation inside an epoch replays the"
            + " epoch's remaining training events into a copy of the memory first, and that replay"
            + " is charged to no row.%n",
        s.devices(),
        mode,
        r.targetValAp(),
        s.checkEvery());
  }

  private static String accuracy(ScheduleComparison.Result r) {
    StringBuilder b = new StringBuilder("Accuracy (measured):\n\n");
    b.append(
        "| row | schedule | G | W | lr (x) | best val AP | test AP (TGL's protocol) | test AP"
            + " (continued) | trained events | grid: best val AP per lr multiplier |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (ScheduleComparison.Row row : r.rows()) {
      RowRun.Result x = row.run();
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %d | %.2e (x%s) | %.4f | %.4f | %.4f | %,d | %s |%n",
              row.label(),
              x.describe().replace("|", "/"),
              x.devices(),
              x.workers(),
              x.learningRate(),
              x.lrMultiplier() > 0 ? format(x.lrMultiplier()) : "own",
              x.bestValAp(),
              x.testAp(),
              x.testApContinued(),
              x.trainedEvents(),
              row.grid().stream()
                  .map(g -> "x" + format(g.multiplier()) + ": " + fourDigits(g.bestValAp()))
                  .collect(Collectors.joining(", "))));
    }
    return b.toString();
  }

  private static String times(ScheduleComparison.Result r, String clock) {
    StringBuilder b =
        new StringBuilder(
            switch (clock) {
              case Targets.HERE -> "Training time measured on this machine's workers:";
              case Targets.MEASURED ->
                  "Projected to G devices from the costs measured here (device model 'measured'):";
              default -> "Projected onto the GPU device model '" + clock + "':";
            });
    b.append(
            "\n\n| row | events/s | time to target (s) | previous validation (s) | speedup over the")
        .append(" fastest disttgl | one check decides | until it stays (s) | sustained speedup |\n")
        .append("|---|---|---|---|---|---|---|---|\n");
    for (ScheduleComparison.Row row : r.rows()) {
      Targets.Target t = row.targets().get(clock);
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %s | %s | %s | %s | %s | %s |%n",
              row.label(),
              t.eventsPerSecond(),
              seconds(t.seconds()),
              seconds(t.previousSeconds()),
              times(t.speedup()),
              t.oneCheckDecides() == null ? "-" : t.oneCheckDecides() ? "yes" : "no",
              seconds(t.sustainedSeconds()),
              times(t.sustainedSpeedup())));
    }
    return b.toString();
  }

  private static String breakdown(ScheduleComparison.Result r, String model) {
    StringBuilder b =
        new StringBuilder(
            "Where the projected time on '" + model + "' goes (shares of each row's total):\n\n");
    b.append(
        "| row | total (s) | compute | launch | host traffic | daemon | link | all-reduce |"
            + " sampling |\n|---|---|---|---|---|---|---|---|---|\n");
    for (ScheduleComparison.Row row : r.rows()) {
      RoundTime t = row.run().gpu().get(model);
      if (t == null || t.seconds() <= 0) {
        continue;
      }
      double s = t.seconds();
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %s | %s | %s | %s | %s | %s | %s |%n",
              row.label(),
              s,
              share(t.compute(), s),
              share(t.launch(), s),
              share(t.hostTraffic(), s),
              share(t.daemon(), s),
              share(t.link(), s),
              share(t.allReduce(), s),
              share(t.sample(), s)));
    }
    return b.toString();
  }

  private static String checks(ScheduleComparison.Result r) {
    StringBuilder b = new StringBuilder();
    for (ScheduleComparison.Row check : r.checks()) {
      RowRun.Result x = check.run();
      double measured = x.trainedEvents() / x.trainSeconds();
      double projected = x.trainedEvents() / x.measuredLinkSeconds();
      b.append(
          String.format(
              Locale.ROOT,
              "Projection check, %s on %d workers: measured %,.0f events/s, projected with this"
                  + " machine's gradient sum and no link %,.0f (%.2fx).%n%n",
              check.label(),
              x.workers(),
              measured,
              projected,
              projected / measured));
    }
    return b.toString();
  }

  private static String assumptions(ScheduleComparison.Settings s) {
    return String.format(
        Locale.ROOT,
        "Stated assumptions of the projections. 'measured': every logical device costs its item"
            + " as measured on one worker here; with memory in host memory (DistTGL) each device"
            + " reads its memory rows and sends its write over its own link of %.0f us and %.0f"
            + " GB/s; with memory on the devices (sequential, DepBloom) only merges, prefill"
            + " handoffs and a chain's rows to its other devices cross, each view on its own link;"
            + " a ring all-reduce over the same link. GPU models (%s): the kernels recorded in the"
            + " first epoch priced kernel by kernel (the larger of the launch overhead and the"
            + " work); DistTGL as its code runs: mini-batches copied in through pageable memory"
            + " with edge features once per sampled edge, writes into touched shared buffers, its"
            + " daemon applying writes and gathering the next reads rank after rank while the"
            + " trainers train (its reads counted as distinct rows); DepBloom's views on their"
            + " devices, a chain's refined large batch on its GPU; all G GPUs in one machine;"
            + " host sampling hidden behind the previous round where it is shorter; recording the"
            + " kernels costs this machine about 6-7%% of the first epoch's CPU time, which the"
            + " measured columns include. See docs/projection.md.%n",
        s.link().latencySeconds() * 1e6,
        s.link().bytesPerSecond() / 1e9,
        s.gpus().isEmpty()
            ? "none"
            : s.gpus().stream().map(DeviceModel::name).collect(Collectors.joining(", ")));
  }

  private static String format(double multiplier) {
    return Math.abs(multiplier - Math.rint(multiplier)) < 1e-9
        ? String.valueOf((long) Math.rint(multiplier))
        : String.format(Locale.ROOT, "%.2f", multiplier);
  }

  private static String fourDigits(double ap) {
    return String.format(Locale.ROOT, "%.4f", ap);
  }

  private static String share(double part, double total) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * part / total);
  }

  private static String times(Double x) {
    return x == null ? "-" : String.format(Locale.ROOT, "%.2fx", x);
  }

  private static String seconds(Double s) {
    return s == null ? "-" : String.format(Locale.ROOT, "%.1f", s);
  }
}
