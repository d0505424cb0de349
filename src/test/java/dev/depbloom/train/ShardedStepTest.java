package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.ModelZoo;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A training step split over step workers is the same step: without dropout, two workers produce
 * the one-worker loss, parameters, memory and mailbox after several steps (up to float summation
 * order); with dropout and uniform sampling (both drawn per shard), a sharded run repeats itself
 * exactly.
 */
class ShardedStepTest {
  private static final int STEPS = 4;

  /** Losses, then parameters, then memory and mailbox, flattened; and the memory times. */
  private record State(float[] values, double[] memoryTimes) {}

  private static TrainingRun run(String model, int workers, boolean dropout) {
    EventStream events = TinyStreams.random(40, 900, 3, 11);
    Map<String, String> o = new HashMap<>();
    o.put("memory.dim_out", "8");
    o.put("memory.dim_time", "4");
    o.put("gnn.dim_out", "8");
    o.put("gnn.dim_time", "4");
    o.put("train.batch_size", "101"); // odd: the shards differ in size
    if (!dropout) {
      o.put("train.dropout", "0");
      o.put("train.att_dropout", "0");
    }
    return new TrainingRun(
        events,
        "tiny",
        Split.of(events),
        ModelZoo.config(model, o),
        3,
        new ThreadBudget(1, 1, workers),
        1);
  }

  private static State train(TrainingRun run) {
    List<Float> out = new ArrayList<>();
    try (TrainingSession s = new TrainingSession(run);
        StepScope scope = new StepScope()) {
      s.model().train(true);
      List<int[]> bounds = s.bounds(0, run.split().trainEnd());
      for (int i = 0; i < STEPS; i++) {
        int[] r = bounds.get(i);
        Batch b = s.batch(i, r[0], r[1], 1, 7L, 1);
        out.add((float) s.step().train(b, RandomStreams.derive(run.seed(), 1, i)));
      }
      TensorVector params = s.model().parameters();
      for (int i = 0; i < params.size(); i++) {
        for (float v : Tensors.toFloats(params.get(i).detach().contiguous().view(-1))) {
          out.add(v);
        }
      }
      double[] times = null;
      if (s.memory() != null) {
        for (Tensor t : new Tensor[] {s.memory().memoryTensor(), s.memory().mailboxTensor()}) {
          for (float v : Tensors.toFloats(t.contiguous().view(-1))) {
            out.add(v);
          }
        }
        times = s.memory().lastUpdateTimes().clone();
      }
      float[] values = new float[out.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = out.get(i);
      }
      return new State(values, times);
    }
  }

  /** Models with deterministic (recent) or no sampling; uniform samples are drawn per shard. */
  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan"})
  void twoWorkersTrainLikeOne(String model) {
    State one = train(run(model, 1, false));
    State two = train(run(model, 2, false));
    assertEquals(one.values().length, two.values().length);
    double worst = 0;
    for (int i = 0; i < one.values().length; i++) {
      worst = Math.max(worst, Math.abs(one.values()[i] - two.values()[i]));
    }
    assertTrue(worst < 1e-4, model + ": largest difference " + worst);
    assertArrayEquals(one.memoryTimes(), two.memoryTimes());
  }

  @ParameterizedTest
  @ValueSource(strings = {"tgn", "tgat"})
  void shardedRunsWithDropoutRepeat(String model) {
    State a = train(run(model, 2, true));
    State b = train(run(model, 2, true));
    assertArrayEquals(a.values(), b.values());
  }
}
