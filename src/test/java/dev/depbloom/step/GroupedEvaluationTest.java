package dev.depbloom.step;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.train.TrainingRun;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Scoring a batch's negatives in groups, writing memory after the last, equals one pass. */
@Tag(Kernels.TRAINS)
class GroupedEvaluationTest {
  @Test
  void scoresAndMemoryAreThoseOfOnePassOverAllNegatives() {
    EventStream events = TinyStreams.random(60, 900, 2, 8);
    TrainingRun run = TinyStreams.tinyRun(events, "tgn", 1);
    float[][] whole = score(run, false);
    float[][] grouped = score(run, true);
    for (int i = 0; i < whole.length; i++) {
      assertArrayEquals(whole[i], grouped[i], 1e-6f, "array " + i);
    }
  }

  /** Positive scores, negative scores and final memory over three batches with 6 negatives. */
  private static float[][] score(TrainingRun run, boolean inGroups) {
    try (TrainingSession s = new TrainingSession(run.session());
        Steps steps = new Steps(s)) {
      s.replica().model().eval();
      float[] pos = new float[0];
      float[] neg = new float[0];
      for (int i = 0; i < 3; i++) {
        Batch batch = s.batch(i, 100 * i, 100 * i + 100, 6, 17, 0);
        BatchScores scores;
        if (inGroups) {
          Batch a = batch.negativeGroup(0, 2);
          Batch b = batch.negativeGroup(2, 4);
          BatchScores sa = steps.evaluate(a, i, false);
          BatchScores sb = steps.evaluate(b, i, true);
          float[] n = Arrays.copyOf(sa.negative(), 600);
          System.arraycopy(sb.negative(), 0, n, 200, 400);
          scores = new BatchScores(sa.positive(), n);
        } else {
          scores = steps.evaluate(batch, i);
        }
        pos = concat(pos, scores.positive());
        neg = concat(neg, scores.negative());
      }
      return new float[][] {pos, neg, Tensors.toFloats(s.memory().view(0).memoryTensor())};
    }
  }

  private static float[] concat(float[] a, float[] b) {
    float[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
