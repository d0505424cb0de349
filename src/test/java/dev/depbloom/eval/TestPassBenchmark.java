package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.ZeroFeatureMatrix;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Speed of the test pass's scoring: the first batches of the test events of a data set scored with
 * {@code K} ranking negatives (untrained parameters: speed does not depend on their values), by
 * {@link EventSliceScorer} with a given slicing and thread budget. Several slicings (a comma list)
 * take turns in one JVM, {@code ROUNDS} times each, so that they are compared under the same
 * machine load; each round resets the sampler and the memory and scores the same batches again.
 *
 * <pre>
 * mvn -q -B -DskipTests test-compile
 * java -cp "target/classes:target/test-classes:target/lib/*" dev.depbloom.eval.TestPassBenchmark \
 *     MODEL DATA|wiki EDGE_DIM BATCHES EVENTS_PER_PASS[,EVENTS_PER_PASS...](0: auto) \
 *     INTRA,BLAS,WORKERS [K] [ROUNDS]
 * </pre>
 */
public final class TestPassBenchmark {
  private TestPassBenchmark() {}

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  public static void main(String[] args) {
    String model = args[0];
    EventStream events =
        args[1].equals("wiki")
            ? EmbeddedDatasets.wikipedia()
            : EventLoader.load(Path.of(args[1]), LoadOptions.defaults());
    int edgeDim = Integer.parseInt(args[2]);
    if (edgeDim > 0 && events.edgeFeatures().dim() == 0) {
      events = events.withEdgeFeatures(new ZeroFeatureMatrix(events.eventCount(), edgeDim));
    }
    int batches = Integer.parseInt(args[3]);
    int[] perPass =
        java.util.Arrays.stream(args[4].split(",")).mapToInt(Integer::parseInt).toArray();
    String[] t = args[5].split(",");
    ThreadBudget budget =
        new ThreadBudget(Integer.parseInt(t[0]), Integer.parseInt(t[1]), Integer.parseInt(t[2]));
    int k = args.length > 6 ? Integer.parseInt(args[6]) : 49;
    int rounds = args.length > 7 ? Integer.parseInt(args[7]) : 1;
    Map<String, String> o = Map.of("train.eval_negatives", String.valueOf(k));
    if (model.equals("dysat") && events.edgeFeatures().dim() == 0) {
      o = Map.of("train.eval_negatives", String.valueOf(k), "gnn.dim_time", "100");
    }
    TrainingRun run =
        new TrainingRun(events, "bench", Split.of(events), RunConfig.zoo(model, o), 0, budget, 2);
    try (TrainingSession s = new TrainingSession(run.session());
        EventSliceScorer scorer =
            new EventSliceScorer(s.step(), s.planner(), run.model(), budget.workers())) {
      s.replica().model().eval();
      TensorRuntime.applyThreads(budget);
      TestNegatives negatives = new TestNegatives(run.events(), 0);
      List<int[]> bounds = s.bounds(run.split().valEnd(), run.split().eventCount());
      for (int round = 0; round < rounds; round++) {
        for (int size : perPass) {
          scorer.eventsPerPass(size);
          s.resetSampler(0);
          if (!s.memory().isNone()) {
            s.memory().reset(0); // the same events again: memory times must not move backwards
          }
          long t0 = 0;
          long cpu0 = 0;
          int events0 = 0;
          for (int i = 0; i < Math.min(bounds.size(), batches + 2); i++) {
            if (i == 2) {
              t0 = System.nanoTime(); // two batches of warm-up
              cpu0 = processCpuNanos();
              events0 = 0;
            }
            int start = bounds.get(i)[0];
            int end = bounds.get(i)[1];
            Batch batch = negatives.batch(i, start, end, k, 1, 0, start);
            scorer.score(batch, start, s.sampler(0), s.memory(), 0, true);
            events0 += end - start;
          }
          double seconds = (System.nanoTime() - t0) / 1e9;
          double cpu = (processCpuNanos() - cpu0) / 1e9;
          System.out.printf(
              "%s %s per-pass %d threads %s round %d: %d events in %.2f s (%.0f events/s),"
                  + " %.2f CPU s%n",
              model, args[1], size, budget.spec(), round, events0, seconds, events0 / seconds, cpu);
        }
      }
    }
  }
}
