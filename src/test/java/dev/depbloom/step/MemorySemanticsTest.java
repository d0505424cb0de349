package dev.depbloom.step;

import static dev.depbloom.step.HandBuiltMemoryStream.assertRow;
import static dev.depbloom.step.HandBuiltMemoryStream.firstBatch;
import static dev.depbloom.step.HandBuiltMemoryStream.hidden;
import static dev.depbloom.step.HandBuiltMemoryStream.row;
import static dev.depbloom.step.HandBuiltMemoryStream.secondBatch;
import static dev.depbloom.step.HandBuiltMemoryStream.updaterInput;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.Kernels;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.nn.SigmoidTanh;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.GRUCellImpl;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.StringTensorDict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * TGL's deferred memory update on a hand-built stream, checked against libtorch's own GRUCell on
 * concatenated inputs: what is written, by whom, dated when.
 */
@Tag(Kernels.TRAINS)
class MemorySemanticsTest {
  private static final int DIM = HandBuiltMemoryStream.DIM;
  private static final int TIME_DIM = HandBuiltMemoryStream.TIME_DIM;
  private static final int MAIL_DIM = 2 * DIM + HandBuiltMemoryStream.EDGE_DIM;

  private final HandBuiltMemoryStream stream =
      new HandBuiltMemoryStream(
          "memory: {type: node, dim_out: 4, dim_time: 3, memory_update: gru}\n"
              + "gnn: {arch: identity}\n",
          "gru-identity");
  private final EventStream events = stream.events;

  @Test
  void batchWritesLastOccurrenceOfTrueEndpointsAndNeverNegatives() {
    try (StepScope scope = new StepScope();
        TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      NodeMemory memory = session.memory().view(0);
      model.eval();
      step.evaluate(firstBatch(events), 0);

      GRUCellImpl gru = referenceGru(model);
      // node 0: events 0 and 2; event 2 (t=3) wins. Node 1: events 0, 1; event 1 wins.
      float[] m0 = expectedFromZero(gru, model, 3);
      float[] m1 = expectedFromZero(gru, model, 2);
      float[] m2 = expectedFromZero(gru, model, 2);
      float[] m3 = expectedFromZero(gru, model, 3);
      assertRow(m0, memory.memoryTensor(), 0);
      assertRow(m1, memory.memoryTensor(), 1);
      assertRow(m2, memory.memoryTensor(), 2);
      assertRow(m3, memory.memoryTensor(), 3);
      assertRow(new float[DIM], memory.memoryTensor(), 4); // the negative never writes
      assertEquals(3, memory.lastUpdate(0));
      assertEquals(2, memory.lastUpdate(1));
      assertEquals(2, memory.lastUpdate(2));
      assertEquals(3, memory.lastUpdate(3));
      assertEquals(0, memory.lastUpdate(4));
      // mail of node 0: [memory'(0 @ 3) || memory'(3 @ 3) || features of event 2]
      assertRow(concat(m0, m3, new float[] {0.2f, 0.3f}), memory.mailboxTensor(), 0);
      // mail of node 1: [memory'(1 @ 2) || memory'(2 @ 2) || features of event 1]
      assertRow(concat(m1, m2, new float[] {0.1f, 0.2f}), memory.mailboxTensor(), 1);
      assertEquals(3, memory.mailTime(0, 0));
      assertRow(new float[MAIL_DIM], memory.mailboxTensor(), 4);
    }
  }

  @Test
  void nextBatchAppliesStoredMailWithTimeSinceLastUpdate() {
    try (StepScope scope = new StepScope();
        TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      NodeMemory memory = session.memory().view(0);
      model.eval();
      step.evaluate(firstBatch(events), 0);
      float[] mail0 = row(memory.mailboxTensor(), 0);
      float[] mem0 = row(memory.memoryTensor(), 0);
      step.evaluate(secondBatch(events), 1);

      // event 3 reads node 0 at t=5: GRU([mail0 || te(5 - 3)], mem0)
      float[] expected = expected(referenceGru(model), model, mail0, 5 - 3, mem0);
      assertRow(expected, memory.memoryTensor(), 0);
      assertEquals(5, memory.lastUpdate(0));
      assertEquals(6, memory.lastUpdate(3));
    }
  }

  @Test
  void trainingWritesTheSameMemoryAsEvaluationWhenParametersDoNotMove() {
    float[] evaluated;
    float[] trained;
    try (StepScope scope = new StepScope()) {
      evaluated = runFirstBatch(false);
      trained = runFirstBatch(true);
    }
    // equal but for the tanh: without gradient it is SigmoidTanh's, within its bound of libtorch's
    assertArrayEquals(evaluated, trained, SigmoidTanh.MAX_ERROR);
  }

  @Test
  void memoryTimeNeverMovesBackwards() {
    try (StepScope scope = new StepScope();
        TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      NodeMemory memory = session.memory().view(0);
      model.eval();
      step.evaluate(secondBatch(events), 1);
      assertThrows(IllegalStateException.class, () -> step.evaluate(firstBatch(events), 0));
    }
  }

  private float[] runFirstBatch(boolean train) {
    try (TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      NodeMemory memory = session.memory().view(0);
      // the run's events: times relative to the first event, as training reads them
      Batch batch = firstBatch(session.spec().events());
      if (train) {
        model.train(true);
        step.train(0, 0, 3, 1);
      } else {
        model.eval();
        step.evaluate(batch, 0);
      }
      return Tensors.toFloats(memory.memoryTensor());
    }
  }

  /** libtorch's GRUCell with the updater's parameters, for concatenated {@code [mail || time]}. */
  private static GRUCellImpl referenceGru(TemporalGnn model) {
    StringTensorDict p = model.named_parameters();
    GRUCellImpl gru = new GRUCellImpl(MAIL_DIM + TIME_DIM, DIM);
    try (NoGradGuard g = new NoGradGuard()) {
      gru.weight_ih().copy_(p.get("memory_updater.gru.weight_ih"));
      gru.weight_hh().copy_(p.get("memory_updater.gru.weight_hh"));
      gru.bias_ih().copy_(p.get("memory_updater.gru.bias_ih"));
      gru.bias_hh().copy_(p.get("memory_updater.gru.bias_hh"));
    }
    return gru;
  }

  private static float[] expectedFromZero(GRUCellImpl gru, TemporalGnn model, double dt) {
    return expected(gru, model, new float[MAIL_DIM], dt, new float[DIM]);
  }

  private static float[] expected(
      GRUCellImpl gru, TemporalGnn model, float[] mail, double dt, float[] memory) {
    try (NoGradGuard g = new NoGradGuard()) {
      return Tensors.toFloats(gru.forward(updaterInput(model, mail, dt), hidden(memory)));
    }
  }

  private static float[] concat(float[]... parts) {
    int n = 0;
    for (float[] p : parts) {
      n += p.length;
    }
    float[] out = new float[n];
    int k = 0;
    for (float[] p : parts) {
      System.arraycopy(p, 0, out, k, p.length);
      k += p.length;
    }
    return out;
  }
}
