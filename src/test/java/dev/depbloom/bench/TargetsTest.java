package dev.depbloom.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.schedule.depbloom.DepBloomConfig;
import dev.depbloom.schedule.disttgl.DistTglConfig;
import dev.depbloom.schedule.sequential.SequentialConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Times to target and speedups over the fastest disttgl, on hand-made curves. */
class TargetsTest {
  private static ScheduleConfig schedule(String name) {
    return switch (name) {
      case "sequential" -> SequentialConfig.DEFAULT;
      case "disttgl" -> DistTglConfig.of(8, 1, true);
      default -> DepBloomConfig.of(1, 1000, null, 8, 1, true, true, true);
    };
  }

  /**
   * A row validated once an epoch: 10 s an epoch here, 2 s projected (1 s for depbloom), trained
   * events 100 an epoch.
   */
  private static RowRun.Result row(String schedule, double... apAtEpochs) {
    List<RowRun.ValidationPoint> points = new ArrayList<>();
    for (int e = 0; e < apAtEpochs.length; e++) {
      double projected = 2.0 * (e + 1) * (schedule.equals("depbloom") ? 0.5 : 1);
      points.add(
          new RowRun.ValidationPoint(
              e + 1, -1, 100L * (e + 1), 10.0 * (e + 1), projected, Map.of(), apAtEpochs[e]));
    }
    return row(schedule, points);
  }

  private static RowRun.Result row(String schedule, List<RowRun.ValidationPoint> points) {
    return new RowRun.Result(
        new RowRun.Candidate(schedule, schedule(schedule), 2),
        schedule,
        8,
        2,
        0,
        1e-4,
        points.stream().mapToDouble(RowRun.ValidationPoint::valAp).max().orElse(0),
        0,
        0,
        points.get(points.size() - 1).trainedEvents(),
        0,
        0,
        0,
        Map.of(),
        points);
  }

  /** Rows trained a fixed number of epochs: no patience, no cap. */
  private static final RowRun.Stop EPOCHS = RowRun.Stop.epochs(3);

  private static Targets.Target measured(List<Map<String, Targets.Target>> t, int row) {
    return t.get(row).get(Targets.MEASURED);
  }

  @Test
  void timeToTargetIsTheFirstValidationAtOrAboveItAndSpeedupIsOverTheFastestDisttgl() {
    List<Map<String, Targets.Target>> t =
        Targets.of(
            List.of(
                row("sequential", 0.80, 0.90),
                row("disttgl", 0.70, 0.86, 0.90),
                row("disttgl", 0.89, 0.90, 0.91),
                row("depbloom", 0.88, 0.90),
                row("depbloom", 0.80, 0.84)),
            0.895,
            EPOCHS);
    assertEquals(20.0, t.get(0).get(Targets.HERE).seconds());
    assertEquals(30.0, t.get(1).get(Targets.HERE).seconds());
    assertEquals(4.0, measured(t, 2).seconds());
    assertEquals(2.0, measured(t, 2).previousSeconds());
    assertEquals(2.0, measured(t, 3).seconds());
    assertEquals(2.0, measured(t, 3).speedup()); // 4 s (fastest disttgl) / 2 s
    assertEquals(1.0, measured(t, 2).speedup());
    assertNull(measured(t, 4).seconds());
    assertNull(measured(t, 4).speedup());
    assertEquals(100.0, measured(t, 3).eventsPerSecond()); // 200 events in 2 s projected
  }

  /** A validation inside an epoch that clears the target counts, though the epoch's end did not. */
  @Test
  void aValidationInsideAnEpochCanReachTheTarget() {
    List<RowRun.ValidationPoint> points = new ArrayList<>();
    points.add(new RowRun.ValidationPoint(1, 50, 50, 5.0, 0.5, Map.of(), 0.85));
    points.add(new RowRun.ValidationPoint(1, -1, 100, 10.0, 1.0, Map.of(), 0.80));
    points.add(new RowRun.ValidationPoint(2, 50, 150, 15.0, 1.5, Map.of(), 0.90));
    points.add(new RowRun.ValidationPoint(2, -1, 200, 20.0, 2.0, Map.of(), 0.90));
    Map<String, Targets.Target> t =
        Targets.of(List.of(row("depbloom", points)), 0.85, EPOCHS).get(0);
    assertEquals(5.0, t.get(Targets.HERE).seconds());
    assertEquals(0.5, t.get(Targets.MEASURED).seconds());
    assertEquals(0.0, t.get(Targets.MEASURED).previousSeconds());
    // it fell back to 0.80 at epoch 1's end and stays at or above the target from 1.5 s on
    assertEquals(1.5, t.get(Targets.MEASURED).sustainedSeconds());
  }

  /** Sustained speedups compare sustained times: a row that dips counts from where it stays. */
  @Test
  void sustainedSpeedupIsOverTheFastestDisttglThatStays() {
    List<Map<String, Targets.Target>> t =
        Targets.of(
            List.of(
                row("disttgl", 0.90, 0.80, 0.90), // first at 2 s, stays from 6 s
                row("disttgl", 0.85, 0.90, 0.91), // stays from 4 s
                row("depbloom", 0.90, 0.85, 0.90), // first 1 s, stays from 3 s
                row("depbloom", 0.90, 0.90, 0.80)), // first 1 s, does not stay
            0.895,
            EPOCHS);
    assertEquals(2.0, measured(t, 0).seconds());
    assertEquals(6.0, measured(t, 0).sustainedSeconds());
    assertEquals(4.0, measured(t, 1).sustainedSeconds());
    assertEquals(2.0, measured(t, 2).speedup()); // 2 s / 1 s
    assertEquals(4.0 / 3.0, measured(t, 2).sustainedSpeedup(), 1e-12);
    assertEquals(2.0, measured(t, 3).speedup());
    assertNull(measured(t, 3).sustainedSeconds());
    assertNull(measured(t, 3).sustainedSpeedup());
  }

  /**
   * A converged row the cap ended while it had stayed at or above the target for fewer validations
   * than the patience has no sustained time (nor sustained speedup): one more validation below the
   * target would have moved it. One that stayed that long, or one patience stopped before the cap,
   * keeps it.
   */
  @Test
  void aStayTheCapCutShortOfThePatienceIsNoSustainedTime() {
    RowRun.Stop stop = RowRun.Stop.converged(2, 300); // the cap: 300 trained events (3 epochs)
    List<Map<String, Targets.Target>> t =
        Targets.of(
            List.of(
                row("disttgl", 0.90, 0.90, 0.90), // stays 3 validations: shown
                row("depbloom", 0.80, 0.85, 0.90), // stays 1 at the cap: cut
                row("depbloom", 0.80, 0.90, 0.90), // stays 2 = patience: shown
                row("depbloom", 0.80, 0.90)), // stopped before the cap (200 events): shown
            0.895,
            stop);
    // projected: disttgl 2 s an epoch, depbloom 1 s
    assertEquals(2.0, measured(t, 0).sustainedSeconds());
    assertEquals(3.0, measured(t, 1).seconds()); // it did cross the target
    assertNull(measured(t, 1).sustainedSeconds());
    assertNull(measured(t, 1).sustainedSpeedup());
    assertEquals(2.0, measured(t, 2).sustainedSeconds());
    assertEquals(1.0, measured(t, 2).sustainedSpeedup());
    assertEquals(2.0, measured(t, 3).sustainedSeconds());
    // the same row trained a fixed number of epochs keeps its stay
    List<RowRun.Result> alone = List.of(row("depbloom", 0.80, 0.85, 0.90));
    assertEquals(3.0, measured(Targets.of(alone, 0.895, EPOCHS), 0).sustainedSeconds());
  }

  /**
   * A speedup that one validation decides says so: the depbloom row crossed between 0 and 1 s, the
   * fastest disttgl between 0 and 2 s, so a finer cadence could reverse them; a row that crossed
   * between 4 and 5 s against disttgl's 0-2 s is clear.
   */
  @Test
  void aSpeedupOneValidationDecidesIsMarked() {
    List<Map<String, Targets.Target>> t =
        Targets.of(
            List.of(
                row("disttgl", 0.90, 0.90),
                row("depbloom", 0.90, 0.90),
                row("sequential", 0.80, 0.85, 0.90)),
            0.895,
            EPOCHS);
    assertNull(measured(t, 0).oneCheckDecides()); // the reference itself
    assertTrue(measured(t, 1).oneCheckDecides());
    assertFalse(measured(t, 2).oneCheckDecides()); // crossed between 4 and 6 s, after 2 s
  }
}
