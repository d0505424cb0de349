package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.tensor.ThreadBudget;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test pass of a trained checkpoint, through {@link Trainer#test}. */
@Tag(Kernels.TRAINS)
class TestPassTest {
  @TempDir Path dir;

  private static TrainingRun run(String model, int evalNegatives) {
    EventStream events = TinyStreams.random(40, 900, 3, 23);
    Map<String, String> o = new HashMap<>();
    o.put("memory.dim_out", "8");
    o.put("memory.dim_time", "4");
    o.put("gnn.dim_out", "8");
    o.put("gnn.dim_time", "4");
    o.put("train.batch_size", "100");
    o.put("train.epoch", "1");
    // 1e-3 trains comfortably on every kernel set (ValidationChecksTest says how it was probed: on
    // random tiny streams 1e-2 can collapse a model to one score, on some kernels only)
    o.put("train.lr", "0.001");
    o.put("train.eval_negatives", String.valueOf(evalNegatives));
    return new TrainingRun(
        events, "tiny", Split.of(events), RunConfig.zoo(model, o), 4, new ThreadBudget(1, 1), 1);
  }

  /** Trains one epoch, then tests its checkpoint once per pass size. */
  private TestMetrics[] testWithPassSizes(String model, int evalNegatives, int... eventsPerPass) {
    RunDirectory out = RunDirectory.create(dir.resolve(model));
    try (Trainer trainer = new Trainer(run(model, evalNegatives))) {
      trainer.fit(out, List.of(), 0);
      TestMetrics[] m = new TestMetrics[eventsPerPass.length];
      for (int i = 0; i < m.length; i++) {
        trainer.testEventsPerPass(eventsPerPass[i]);
        m[i] = trainer.test(out, 1);
      }
      return m;
    }
  }

  /**
   * TGAT draws uniform neighbors: each root keyed by its position in the whole batch gets the same
   * neighborhood however a batch is split into passes, so MRR does not depend on the split.
   */
  @Test
  void tgatsRankingDoesNotDependOnHowABatchIsSplitIntoPasses() {
    TestMetrics[] m = testWithPassSizes("tgat", 20, 8, Integer.MAX_VALUE);
    assertEquals(m[1].reset().mrr(), m[0].reset().mrr(), 1e-9);
    assertEquals(m[1].reset().ap(), m[0].reset().ap(), 1e-9);
    assertEquals(m[1].reset().newNodeAp(), m[0].reset().newNodeAp(), 1e-9);
  }

  @Test
  void withoutMemoryBothProtocolsAreOne() {
    TestMetrics m = testWithPassSizes("tgat", 3, 0)[0];
    assertEquals(m.reset(), m.continued());
  }

  /**
   * The test's wall time is broken down by stage, and the stages account for most of it. A pass of
   * this size takes about 30 ms, so one GC pause or a busy machine can leave half of a single pass
   * outside any stage: the share is checked on the best of five passes, which an untimed stage or a
   * real gap between stages fails every time.
   */
  @Test
  void theStagesAccountForTheTestsTime() {
    // the first test of a JVM spends most of its 40 ms loading classes outside any stage: skip it
    TestMetrics[] passes = testWithPassSizes("tgn", 3, 0, 0, 0, 0, 0, 0);
    double bestShare = 0;
    String shares = "";
    for (TestMetrics m : List.of(passes).subList(1, passes.length)) {
      assertEquals(
          List.of(
              "replay", "plan", "shareReads", "memoryUpdate", "score", "memoryWrite", "metrics"),
          List.copyOf(m.stageSeconds().keySet()));
      double sum = m.stageSeconds().values().stream().mapToDouble(Double::doubleValue).sum();
      for (var e : m.stageSeconds().entrySet()) {
        assertTrue(e.getValue() > 0, e.getKey() + " took no time");
      }
      assertTrue(sum <= m.seconds(), sum + " s of " + m.seconds() + " s");
      bestShare = Math.max(bestShare, sum / m.seconds());
      shares += String.format(" %.2f", sum / m.seconds());
    }
    assertTrue(bestShare > 0.5, "stages' share of each pass:" + shares);
    TestMetrics tgat = testWithPassSizes("tgat", 3, 0)[0]; // no memory: no replay, one phase
    assertEquals(0.0, tgat.stageSeconds().get("memoryUpdate"));
    assertEquals(0.0, tgat.stageSeconds().get("replay"));
    assertTrue(tgat.stageSeconds().get("score") > 0);
  }

  /** Continued memory is what validation left; TGL's is rebuilt by the replay: they differ. */
  @Test
  void withMemoryTheProtocolsScoreDifferentMemory() {
    TestMetrics m = testWithPassSizes("tgn", 3, 0)[0];
    assertNotEquals(m.reset().ap(), m.continued().ap());
  }

  @Test
  void zeroEvalNegativesSkipsMrrButNotApAndAuc() {
    TestMetrics m = testWithPassSizes("tgn", 0, 0)[0];
    assertNull(m.reset().mrr());
    assertNull(m.continued().mrr());
    assertEquals(0, m.negatives());
    assertEquals(m.reset().ap(), m.reset().ap()); // a number, not NaN
    assertEquals(m.continued().auc(), m.continued().auc());
  }
}
