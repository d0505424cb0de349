package dev.depbloom.bench;

import dev.depbloom.device.InProcessCollective;
import dev.depbloom.recording.StageTimes;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.train.TrainingRounds;
import dev.depbloom.train.TrainingRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Training rounds of the run's schedule in a loop, as a run does them (epoch after epoch, memory
 * views and samplers reset where the schedule says), measuring events per second, the per-stage
 * split, and the process's resident memory every few steps, to show that native memory stays flat.
 */
public final class TrainingBenchmark {
  private TrainingBenchmark() {}

  /** A resident-memory reading: after {@code step} measured steps, {@code rssMb} MiB. */
  public record RssSample(int step, double rssMb) {}

  /** What a benchmark measured over its timed steps. */
  public record Result(
      String model,
      int steps,
      long events,
      double seconds,
      double eventsPerSecond,
      Map<String, Double> stageSeconds,
      List<RssSample> rss) {

    /**
     * Resident memory at the last reading minus the first reading at or after a tenth of the steps,
     * in MiB. The first steps grow the native allocator's heap to its working size; a leak shows as
     * growth after that.
     */
    public double rssGrowthMb() {
      if (rss.isEmpty()) {
        return 0;
      }
      RssSample from = rss.get(rss.size() - 1);
      for (RssSample s : rss) {
        if (s.step() >= steps / 10) {
          from = s;
          break;
        }
      }
      return rss.get(rss.size() - 1).rssMb() - from.rssMb();
    }
  }

  /**
   * Runs {@code warmup} untimed steps, then {@code steps} timed ones, reading resident memory every
   * {@code rssEvery} timed steps.
   */
  public static Result run(TrainingRun run, int warmup, int steps, int rssEvery) {
    try (TrainingRounds training = new TrainingRounds(run, new InProcessCollective())) {
      StageTimes times = training.times();
      training.session().replica().model().train(true);
      List<RssSample> rss = new ArrayList<>();
      RoundRunner.EpochRounds rounds = null;
      long events = 0;
      long t0 = 0;
      int epoch = 0;
      for (int i = 0; i < warmup + steps; i++) {
        if (rounds == null || !rounds.hasNext()) {
          epoch++;
          rounds = training.epoch(epoch);
        }
        if (i == warmup) {
          times.reset();
          rss.add(new RssSample(0, residentMb()));
          t0 = System.nanoTime();
        }
        RoundPlan round = rounds.peek();
        rounds.runNext();
        if (i >= warmup) {
          events += round.events();
          int done = i - warmup + 1;
          if (done % rssEvery == 0 || done == steps) {
            rss.add(new RssSample(done, residentMb()));
          }
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      return new Result(
          run.config().name(),
          steps,
          events,
          seconds,
          events / seconds,
          times.run().secondsByKey(),
          List.copyOf(rss));
    }
  }

  /** The process's resident set size from {@code /proc/self/status}, or NaN where unavailable. */
  static double residentMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return Double.NaN;
    }
    return Double.NaN;
  }
}
