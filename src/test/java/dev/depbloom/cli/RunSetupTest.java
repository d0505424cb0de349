package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.InputException;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.tensor.ThreadBudgetCalibration;
import org.junit.jupiter.api.Test;

/** The thread budget a run gets from {@code --threads} and {@code --workers}. */
class RunSetupTest {
  /**
   * Without either option the budget is one worker of 1 + 1 per core, never a timing: a timed
   * choice gave two runs of one command different worker counts, hence different shards and
   * figures.
   */
  @Test
  void theDefaultBudgetIsOneWorkerPerCoreAndMeasuresNothing() {
    for (int cores : new int[] {1, 2, 6}) {
      ThreadBudgetCalibration.Result r = RunSetup.threadBudget(null, null, cores);
      assertEquals(new ThreadBudget(1, 1, cores), r.chosen());
      assertTrue(r.millisByCandidate().isEmpty(), "measured " + r.millisByCandidate());
    }
  }

  @Test
  void workersAloneGiveEveryWorkerOneThreadOfEachPoolWhateverTheCores() {
    assertEquals(new ThreadBudget(1, 1, 2), RunSetup.threadBudget(null, 2, 6).chosen());
    assertEquals(new ThreadBudget(1, 1, 1), RunSetup.threadBudget(null, 1, 2).chosen());
  }

  @Test
  void autoMeasuresEveryCandidate() {
    ThreadBudgetCalibration.Result r = RunSetup.threadBudget("auto", null, 2);
    assertEquals(4, r.millisByCandidate().size(), r.millisByCandidate().toString());
    assertTrue(
        r.millisByCandidate().values().stream().allMatch(ms -> ms > 0),
        r.millisByCandidate().toString());
  }

  @Test
  void autoWithWorkersIsRefusedNamingBoth() {
    InputException e =
        assertThrows(InputException.class, () -> RunSetup.threadBudget("auto", 2, 2));
    assertTrue(e.getMessage().contains("--workers 2 contradicts --threads auto"), e.getMessage());
  }
}
