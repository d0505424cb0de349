package dev.depbloom.step;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.model.config.ConfigReader;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.schedule.sequential.SequentialConfig;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.util.Map;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.StringTensorDict;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * The five-event stream the memory-semantics tests run by hand ({@link MemorySemanticsTest}, {@link
 * MailTimeDeltaTest}): memory of width {@link #DIM}, time encoding of width {@link #TIME_DIM}, edge
 * features of width {@link #EDGE_DIM}, no sampling, batches of 3 then 2 events with node 4 as every
 * negative.
 *
 * <pre>
 *  event:   0       1       2       3       4
 *  src:     0       2       0       0       3
 *  dst:     1       1       3       1       2
 *  time:    1       2       3       5       6
 * </pre>
 */
final class HandBuiltMemoryStream {
  static final int DIM = 4;
  static final int TIME_DIM = 3;
  static final int EDGE_DIM = 2;

  final EventStream events =
      TinyStreams.of(
          5,
          new int[] {0, 2, 0, 0, 3},
          new int[] {1, 1, 3, 1, 2},
          new double[] {1, 2, 3, 5, 6},
          EDGE_DIM);

  private final ModelConfig config;

  /**
   * @param memoryAndGnn the config's {@code memory} and {@code gnn} sections (YAML lines)
   */
  HandBuiltMemoryStream(String memoryAndGnn, String name) {
    config =
        ConfigReader.parse(
            "sampling: {no_sample: true}\n" + memoryAndGnn + "train: {batch_size: 3}\n",
            "test",
            name,
            Map.of());
  }

  /** Events 0 to 2, negatives all node 4, of {@code events} (this stream or the run's copy). */
  static Batch firstBatch(EventStream events) {
    return Batch.of(events, 0, 0, 3, new int[] {4, 4, 4});
  }

  /** Events 3 and 4, negatives node 4. */
  static Batch secondBatch(EventStream events) {
    return Batch.of(events, 1, 3, 5, new int[] {4, 4});
  }

  /** A sequential session over the whole stream, seed 7, one thread. */
  TrainingSession session() {
    return new TrainingSession(
        new TrainingRun(
                events,
                "hand-built",
                Split.of(events),
                new RunConfig(config, SequentialConfig.DEFAULT),
                7,
                new ThreadBudget(1, 1),
                1)
            .session());
  }

  /**
   * The input a reference cell reads for {@code content} read after {@code dt}: {@code [content ||
   * cos(w dt + b)]} with the updater's time encoding, one row.
   */
  static Tensor updaterInput(TemporalGnn model, float[] content, double dt) {
    try (NoGradGuard g = new NoGradGuard()) {
      StringTensorDict p = model.named_parameters();
      Tensor w = p.get("memory_updater.time.w.weight").view(-1);
      Tensor b = p.get("memory_updater.time.w.bias");
      Tensor te = w.mul(Tensors.scalar(dt)).add(b).cos().view(1, TIME_DIM);
      return torch.cat(new TensorVector(Tensors.floats(content, 1, content.length), te), 1);
    }
  }

  /** {@code memory} as the one-row hidden state of a reference cell. */
  static Tensor hidden(float[] memory) {
    return Tensors.floats(memory, 1, DIM);
  }

  static float[] row(Tensor t, int row) {
    return Tensors.toFloats(t.select(0, row));
  }

  static void assertRow(float[] expected, Tensor t, int row) {
    assertArrayEquals(expected, row(t, row), 1e-6f, "row " + row);
  }
}
