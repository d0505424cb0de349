package dev.depbloom.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The rows a comparison trains. */
class CandidatesTest {
  @Test
  void rowGroupsSelectTheRowsAndSequentialAlwaysRuns() {
    Function<Set<Candidates.RowGroup>, List<String>> labels =
        g -> Candidates.of(4, 2, g, Set.of()).stream().map(RowRun.Candidate::label).toList();
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
        labels.apply(EnumSet.allOf(Candidates.RowGroup.class)));
    assertEquals(
        List.of("sequential", "depbloom", "depbloom M=2"),
        labels.apply(EnumSet.of(Candidates.RowGroup.DEPBLOOM)));
    assertEquals(
        List.of("sequential", "disttgl i=4 k=1", "disttgl i=2 k=2", "disttgl i=1 k=4"),
        labels.apply(EnumSet.of(Candidates.RowGroup.DISTTGL)));
    assertEquals(
        List.of("sequential", "depbloom prefill", "depbloom prefill M=2"),
        labels.apply(EnumSet.of(Candidates.RowGroup.PREFILL)));
    for (RowRun.Candidate c :
        Candidates.of(4, 2, EnumSet.of(Candidates.RowGroup.PREFILL), Set.of())) {
      assertEquals(!c.label().equals("sequential"), c.schedule().prefill(), c.label());
    }
    assertEquals(
        List.of("sequential", "disttgl i=4 k=1", "disttgl i=1 k=4"),
        Candidates.of(4, 2, EnumSet.of(Candidates.RowGroup.DISTTGL), Set.of(1, 4)).stream()
            .map(RowRun.Candidate::label)
            .toList());
  }

  @Test
  void anUnknownRowGroupIsNamed() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Candidates.RowGroup.of("dist"));
    assertTrue(e.getMessage().contains("'dist'"));
  }

  @Test
  void theGridHasOneRateOnOneDeviceAndThreeOnEight() {
    assertEquals(List.of(1.0), LearningRateGrid.DEFAULT.multipliers(1));
    assertEquals(List.of(1.0, Math.sqrt(8), 8.0), LearningRateGrid.DEFAULT.multipliers(8));
    assertThrows(IllegalArgumentException.class, () -> LearningRateGrid.parse(List.of("1", "x")));
  }
}
