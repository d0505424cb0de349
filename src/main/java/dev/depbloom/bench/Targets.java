package dev.depbloom.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Times to the target validation AP under each clock of a comparison, and speedups over the fastest
 * {@code disttgl} row (issue 34: checks at equal trained events; a speedup that one check decides
 * is reported as such). Clocks: {@value #HERE} (training seconds measured on this machine), {@value
 * #MEASURED} (projected to G devices with this machine's costs) and each GPU device model by name.
 */
public final class Targets {
  /** Training seconds as measured here. */
  static final String HERE = "here";

  /**
   * Projected to G devices from this machine's measured costs ({@code --device-model measured}).
   */
  static final String MEASURED = "measured";

  private Targets() {}

  /**
   * A row's time to the target under one clock. {@code seconds}: at the first validation at or
   * above the target (null: never); {@code previousSeconds}: at the validation before it (0 when it
   * is the first), so the row crossed the target somewhere in between; {@code sustainedSeconds}:
   * from the validation on which every later one stays at or above it, null where the row never
   * stays or the cap ended it before it had stayed its stop's patience in validations (one more
   * validation below the target would have removed it). {@code speedup}: the fastest disttgl row's
   * seconds over this row's; {@code oneCheckDecides}: whether this row's and that disttgl row's
   * intervals overlap, so that a finer cadence of checks could reverse the order.
   */
  public record Target(
      String clock,
      double eventsPerSecond,
      Double seconds,
      Double previousSeconds,
      Double sustainedSeconds,
      Double speedup,
      Double sustainedSpeedup,
      Boolean oneCheckDecides) {}

  /** The clocks of {@code run}: here, measured, then its GPU device models. */
  static List<String> clocks(RowRun.Result run) {
    List<String> out = new ArrayList<>(List.of(HERE, MEASURED));
    out.addAll(run.gpu().keySet());
    return out;
  }

  /** Per row (in order) and clock, its target; every row was trained until {@code stop}. */
  static List<Map<String, Target>> of(List<RowRun.Result> rows, double target, RowRun.Stop stop) {
    List<Map<String, Target>> out = new ArrayList<>();
    for (RowRun.Result r : rows) {
      Map<String, Target> byClock = new LinkedHashMap<>();
      for (String clock : clocks(r)) {
        byClock.put(clock, hit(r, clock, target, stop));
      }
      out.add(byClock);
    }
    for (String clock : rows.isEmpty() ? List.<String>of() : clocks(rows.get(0))) {
      Target fastest = null;
      Target fastestSustained = null;
      for (int i = 0; i < rows.size(); i++) {
        Target t = out.get(i).get(clock);
        if (!rows.get(i).candidate().schedule().label().equals("disttgl") || t == null) {
          continue;
        }
        if (t.seconds() != null && (fastest == null || t.seconds() < fastest.seconds())) {
          fastest = t;
        }
        if (t.sustainedSeconds() != null
            && (fastestSustained == null
                || t.sustainedSeconds() < fastestSustained.sustainedSeconds())) {
          fastestSustained = t;
        }
      }
      for (Map<String, Target> byClock : out) {
        Target t = byClock.get(clock);
        if (t != null) {
          byClock.put(clock, withSpeedups(t, fastest, fastestSustained));
        }
      }
    }
    return out;
  }

  /** The row's crossing of {@code target} under {@code clock}, without speedups. */
  private static Target hit(RowRun.Result r, String clock, double target, RowRun.Stop stop) {
    List<RowRun.ValidationPoint> points = r.validations();
    Double seconds = null;
    Double previous = null;
    for (int i = 0; i < points.size(); i++) {
      if (points.get(i).valAp() >= target) {
        seconds = time(points.get(i), clock);
        previous = i == 0 ? 0.0 : time(points.get(i - 1), clock);
        break;
      }
    }
    Double sustained = null;
    int stayed = 0;
    for (int i = points.size() - 1; i >= 0 && points.get(i).valAp() >= target; i--) {
      sustained = time(points.get(i), clock);
      stayed++;
    }
    double total = points.isEmpty() ? 0 : time(points.get(points.size() - 1), clock);
    long lastEvents = points.isEmpty() ? 0 : points.get(points.size() - 1).trainedEvents();
    if (stayed < stop.patience() && lastEvents >= stop.maxTrainedEvents()) {
      sustained = null; // cut by the cap: not shown to stay
    }
    double eventsPerSecond = total > 0 ? lastEvents / total : 0;
    return new Target(clock, eventsPerSecond, seconds, previous, sustained, null, null, null);
  }

  /** A validation's time under a clock. */
  static double time(RowRun.ValidationPoint p, String clock) {
    return switch (clock) {
      case HERE -> p.trainSeconds();
      case MEASURED -> p.projectedSeconds();
      default -> p.gpuSeconds().get(clock);
    };
  }

  private static Target withSpeedups(Target t, Target fastest, Target fastestSustained) {
    Double speedup =
        fastest == null || t.seconds() == null ? null : fastest.seconds() / t.seconds();
    Double sustained =
        fastestSustained == null || t.sustainedSeconds() == null
            ? null
            : fastestSustained.sustainedSeconds() / t.sustainedSeconds();
    boolean reference = t.equals(fastest); // the fastest disttgl row itself
    Boolean oneCheck =
        fastest == null || t.seconds() == null || reference
            ? null
            : t.previousSeconds() < fastest.seconds() && fastest.previousSeconds() < t.seconds();
    return new Target(
        t.clock(),
        t.eventsPerSecond(),
        t.seconds(),
        t.previousSeconds(),
        t.sustainedSeconds(),
        speedup,
        sustained,
        oneCheck);
  }
}
