package dev.depbloom.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Times to target and speedups over the fastest disttgl, on hand-made curves. */
class ScheduleComparisonTest {
  private static ScheduleComparison.Row row(String schedule, double... apAtEpochs) {
    List<ScheduleComparison.ValidationPoint> points = new java.util.ArrayList<>();
    for (int e = 0; e < apAtEpochs.length; e++) {
      points.add(
          new ScheduleComparison.ValidationPoint(
              e + 1,
              100,
              10.0 * (e + 1),
              2.0 * (e + 1) * (schedule.equals("depbloom") ? 0.5 : 1),
              apAtEpochs[e]));
    }
    return row(schedule, points);
  }

  /** A row of {@code schedule} validated at {@code points}, its times to target not yet set. */
  private static ScheduleComparison.Row row(
      String schedule, List<ScheduleComparison.ValidationPoint> points) {
    return new ScheduleComparison.Row(
        schedule,
        schedule,
        schedule,
        8,
        2,
        points.get(points.size() - 1).valAp(),
        0,
        0,
        0,
        0,
        null,
        null,
        null,
        null,
        null,
        List.of(),
        points);
  }

  @Test
  void timeToTargetIsTheFirstValidationAtOrAboveItAndSpeedupIsOverTheFastestDisttgl() {
    List<ScheduleComparison.Row> rows =
        ScheduleComparison.withTargets(
            List.of(
                row("sequential", 0.80, 0.90),
                row("disttgl", 0.70, 0.86, 0.90),
                row("disttgl", 0.89, 0.90, 0.91),
                row("depbloom", 0.88, 0.90),
                row("depbloom", 0.80, 0.84)),
            0.895);
    assertEquals(20.0, rows.get(0).timeToTargetSeconds());
    assertEquals(30.0, rows.get(1).timeToTargetSeconds());
    assertEquals(4.0, rows.get(2).projectedTimeToTargetSeconds());
    assertEquals(2.0, rows.get(3).projectedTimeToTargetSeconds());
    assertEquals(2.0, rows.get(3).speedupOverDisttgl()); // 4 s (fastest disttgl) / 2 s
    assertEquals(1.0, rows.get(2).speedupOverDisttgl());
    assertNull(rows.get(4).timeToTargetSeconds());
    assertNull(rows.get(4).speedupOverDisttgl());
  }

  /** A validation inside an epoch that clears the target counts, though the epoch's end did not. */
  @Test
  void aValidationInsideAnEpochCanReachTheTarget() {
    List<ScheduleComparison.ValidationPoint> points = new java.util.ArrayList<>();
    points.add(new ScheduleComparison.ValidationPoint(1, 50, 5.0, 0.5, 0.85));
    points.add(new ScheduleComparison.ValidationPoint(1, 100, 10.0, 1.0, 0.80));
    points.add(new ScheduleComparison.ValidationPoint(2, 50, 15.0, 1.5, 0.90));
    points.add(new ScheduleComparison.ValidationPoint(2, 100, 20.0, 2.0, 0.90));
    ScheduleComparison.Row r = row("depbloom", points);
    ScheduleComparison.Row timed = ScheduleComparison.withTargets(List.of(r), 0.85).get(0);
    assertEquals(5.0, timed.timeToTargetSeconds());
    assertEquals(0.5, timed.projectedTimeToTargetSeconds());
    // it fell back to 0.80 at epoch 1's end and stays at or above the target from 1.5 s on
    assertEquals(1.5, timed.projectedSustainedTimeToTargetSeconds());
  }

  /** Sustained speedups compare sustained times: a row that dips counts from where it stays. */
  @Test
  void sustainedSpeedupIsOverTheFastestDisttglThatStays() {
    List<ScheduleComparison.Row> rows =
        ScheduleComparison.withTargets(
            List.of(
                row("disttgl", 0.90, 0.80, 0.90), // first at 2 s, stays from 6 s
                row("disttgl", 0.85, 0.90, 0.91), // stays from 4 s
                row("depbloom", 0.90, 0.85, 0.90), // first 1 s, stays from 3 s
                row("depbloom", 0.90, 0.90, 0.80)), // first 1 s, does not stay
            0.895);
    assertEquals(2.0, rows.get(0).projectedTimeToTargetSeconds());
    assertEquals(6.0, rows.get(0).projectedSustainedTimeToTargetSeconds());
    assertEquals(4.0, rows.get(1).projectedSustainedTimeToTargetSeconds());
    assertEquals(2.0, rows.get(2).speedupOverDisttgl()); // 2 s / 1 s
    assertEquals(4.0 / 3.0, rows.get(2).sustainedSpeedupOverDisttgl(), 1e-12);
    assertEquals(2.0, rows.get(3).speedupOverDisttgl());
    assertNull(rows.get(3).projectedSustainedTimeToTargetSeconds());
    assertNull(rows.get(3).sustainedSpeedupOverDisttgl());
  }

  @Test
  void rowGroupsSelectTheRowsAndSequentialAlwaysRuns() {
    java.util.function.Function<java.util.Set<ScheduleComparison.RowGroup>, List<String>> labels =
        g ->
            ScheduleComparison.candidates(4, 2, g, Set.of()).stream()
                .map(ScheduleComparison.Candidate::label)
                .toList();
    assertEquals(
        List.of(
            "sequential",
            "disttgl i=4 k=1",
            "disttgl i=2 k=2",
            "disttgl i=1 k=4",
            "depbloom",
            "depbloom M=2",
            "depbloom prefill",
            "depbloom prefill M=2",
            "depbloom partitioning only",
            "depbloom refinement only",
            "depbloom no critical path"),
        labels.apply(java.util.EnumSet.allOf(ScheduleComparison.RowGroup.class)));
    assertEquals(
        List.of("sequential", "depbloom", "depbloom M=2"),
        labels.apply(java.util.EnumSet.of(ScheduleComparison.RowGroup.DEPBLOOM)));
    assertEquals(
        List.of("sequential", "disttgl i=4 k=1", "disttgl i=2 k=2", "disttgl i=1 k=4"),
        labels.apply(java.util.EnumSet.of(ScheduleComparison.RowGroup.DISTTGL)));
    assertEquals(
        List.of("sequential", "depbloom prefill", "depbloom prefill M=2"),
        labels.apply(java.util.EnumSet.of(ScheduleComparison.RowGroup.PREFILL)));
    for (ScheduleComparison.Candidate c :
        ScheduleComparison.candidates(
            4, 2, java.util.EnumSet.of(ScheduleComparison.RowGroup.PREFILL), Set.of())) {
      assertEquals(!c.label().equals("sequential"), c.schedule().prefill(), c.label());
    }
    assertEquals(
        List.of("sequential", "disttgl i=4 k=1", "disttgl i=1 k=4"),
        ScheduleComparison.candidates(
                4, 2, java.util.EnumSet.of(ScheduleComparison.RowGroup.DISTTGL), Set.of(1, 4))
            .stream()
            .map(ScheduleComparison.Candidate::label)
            .toList());
  }

  @Test
  void anUnknownRowGroupIsNamed() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> ScheduleComparison.RowGroup.of("dist"));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("'dist'"));
  }
}
