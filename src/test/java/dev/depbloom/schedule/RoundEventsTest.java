package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.device.InProcessCollective;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.train.Schedules;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The round engine tells its listeners one round's events in the order docs/architecture.md ("One
 * round's events") gives, with prefills at window starts and merges at window ends, and records
 * kernels exactly in the epochs a listener asks for.
 */
class RoundEventsTest {
  /** Logs every event as a word (and the kernels' recording of each task). */
  private static final class Log implements RoundListener {
    final List<String> words = new ArrayList<>();
    final List<Boolean> taskKernels = new ArrayList<>();

    @Override
    public boolean recordsKernels(int epoch) {
      return epoch == 1;
    }

    @Override
    public void started(RoundEvent.Started e) {
      words.add("started");
    }

    @Override
    public void sampled(RoundEvent.Sampled e) {
      words.add("sampled");
    }

    @Override
    public void prefilled(RoundEvent.Prefilled e) {
      words.add("prefilled");
    }

    @Override
    public void taskRan(RoundEvent.TaskRan e) {
      words.add("taskRan");
      taskKernels.add(e.stages().recordsKernels());
    }

    @Override
    public void workersJoined(RoundEvent.WorkersJoined e) {
      words.add("workersJoined");
    }

    @Override
    public void coordinated(RoundEvent.Coordinated e) {
      words.add(e.name());
    }

    @Override
    public void viewCommitted(RoundEvent.ViewCommitted e) {
      words.add("viewCommitted");
    }

    @Override
    public void merged(RoundEvent.Merged e) {
      words.add("merged");
    }

    @Override
    public void synced(RoundEvent.Synced e) {
      words.add("synced");
    }

    @Override
    public void finished(RoundEvent.Finished e) {
      words.add("finished");
    }
  }

  @Test
  void aRoundTellsItsEventsInOrder() {
    TrainingRun run =
        ScheduleRuns.run(
            "tgn",
            Map.of(
                "schedule.name", "depbloom",
                "schedule.window", "240",
                "schedule.partitioner", "contiguous",
                "schedule.chains", "2",
                "schedule.micro_batches", "1",
                "schedule.refine", "false",
                "schedule.critical_path", "false",
                "schedule.prefill", "true"),
            2,
            40,
            60);
    Schedule schedule = Schedules.of(run);
    Log log = new Log();
    List<RoundPlan> plans = schedule.plan(1);
    int prefills = 0;
    int merges = 0;
    try (StepScope scope = new StepScope();
        TrainingSession s = new TrainingSession(run.session());
        RoundRunner runner =
            new RoundRunner(s, schedule, 2, new InProcessCollective(), schedule.commitPolicy())) {
      runner.listen(log);
      s.replica().model().train(true);
      for (int epoch = 1; epoch <= 2; epoch++) {
        RoundRunner.EpochRounds rounds = runner.epoch(schedule.plan(epoch), epoch);
        while (rounds.hasNext()) {
          int before = log.words.size();
          RoundPlan round = rounds.peek();
          rounds.runNext();
          if (epoch == 1) {
            assertEquals(
                expected(round), log.words.subList(before, log.words.size()), "round " + round);
            prefills += round.prefills().size();
            merges += round.merges().size();
          }
        }
        runner.drain();
      }
    }
    assertTrue(prefills > 0 && merges > 0, "the plan prefills and merges: " + plans.size());
    int tasksOfEpoch1 = plans.stream().mapToInt(r -> r.items().size()).sum();
    assertTrue(log.taskKernels.subList(0, tasksOfEpoch1).stream().allMatch(b -> b));
    assertFalse(
        log.taskKernels.subList(tasksOfEpoch1, log.taskKernels.size()).stream().anyMatch(b -> b));
  }

  /** The documented order for a round of one worker per device, one view written per item. */
  private static List<String> expected(RoundPlan round) {
    List<String> out = new ArrayList<>(List.of("started"));
    round.prefills().forEach(f -> out.add("prefilled"));
    round.items().forEach(i -> out.add("sampled"));
    round.items().forEach(i -> out.add("taskRan"));
    out.addAll(List.of("workersJoined", "allReduce", "optimizerStep", "exchangeWrites"));
    round.items().stream().map(ItemPlan::view).distinct().forEach(v -> out.add("viewCommitted"));
    out.add("commit");
    if (round.mergeViews()) {
      round.merges().forEach(g -> out.add("merged"));
      out.add("merge");
    }
    round.items().forEach(i -> out.add("synced"));
    out.add("finished");
    return out;
  }
}
