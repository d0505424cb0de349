package dev.depbloom.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.schedule.depbloom.DepBloomConfig;
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
        g ->
            Candidates.of(4, 2, g, Set.of(), Set.of(1, 4), 600).stream()
                .map(RowRun.Candidate::label)
                .toList();
    assertEquals(
        List.of(
            "sequential",
            "disttgl i=4 j=1 k=1 B=600",
            "disttgl i=2 j=2 k=1 B=600",
            "disttgl i=1 j=4 k=1 B=600",
            "disttgl i=2 j=1 k=2 B=600",
            "disttgl i=1 j=2 k=2 B=600",
            "disttgl i=1 j=1 k=4 B=600",
            "depbloom P=4 k=1 B=600 M=1",
            "depbloom P=4 k=4 B=600 M=1",
            "depbloom P=2 k=1 B=600 M=2",
            "depbloom P=2 k=4 B=600 M=2",
            "depbloom P=1 k=4 B=600 M=4",
            "depbloom prefill P=4 k=1 B=600 M=1",
            "depbloom prefill P=4 k=4 B=600 M=1",
            "depbloom prefill P=2 k=1 B=600 M=2",
            "depbloom prefill P=2 k=4 B=600 M=2",
            "depbloom partitioning only",
            "depbloom refinement only (spread)",
            "depbloom no critical path"),
        labels.apply(EnumSet.allOf(Candidates.RowGroup.class)));
    for (RowRun.Candidate c :
        Candidates.of(
            4, 2, EnumSet.allOf(Candidates.RowGroup.class), Set.of(), Set.of(1, 4), 600)) {
      assertEquals(4, c.label().equals("sequential") ? 4 : c.schedule().devices(), c.label());
      assertEquals(
          c.label().contains("prefill"),
          c.schedule() instanceof DepBloomConfig d && d.prefill(),
          c.label());
    }
    assertEquals(
        List.of(
            "sequential",
            "disttgl i=4 j=1 k=1 B=600",
            "disttgl i=2 j=2 k=1 B=600",
            "disttgl i=1 j=4 k=1 B=600",
            "disttgl i=1 j=1 k=4 B=600"),
        Candidates.of(4, 2, EnumSet.of(Candidates.RowGroup.DISTTGL), Set.of(1, 4), Set.of(1), 600)
            .stream()
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
