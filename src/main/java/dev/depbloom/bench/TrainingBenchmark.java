package dev.depbloom.bench;

import dev.depbloom.data.RandomStreams;
import dev.depbloom.train.TrainingRun;
import dev.depbloom.train.TrainingSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Training steps in a loop, as a run does them (the training batches in time order, memory and
 * sampler reset when the stream wraps), measuring events per second, the per-stage split, and the
 * process's resident memory every few steps, to show that native memory stays flat.
 */
public final class TrainingBenchmark {
  private static final long KEY = RandomStreams.key("bench-train");

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
    try (TrainingSession session = new TrainingSession(run)) {
      session.model().train(true);
      List<int[]> bounds = session.bounds(0, run.split().trainEnd());
      List<RssSample> rss = new ArrayList<>();
      long events = 0;
      long t0 = 0;
      int epoch = 0;
      for (int i = 0; i < warmup + steps; i++) {
        int b = i % bounds.size();
        if (b == 0) {
          session.resetTime();
          epoch++;
        }
        if (i == warmup) {
          session.timer().reset();
          rss.add(new RssSample(0, residentMb()));
          t0 = System.nanoTime();
        }
        int[] range = bounds.get(b);
        session.step().train(session.batch(b, range[0], range[1], 1, KEY, epoch), b);
        if (i >= warmup) {
          events += range[1] - range[0];
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
          session.timer().secondsByKey(),
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
