package dev.depbloom.step;

import static dev.depbloom.step.HandBuiltMemoryStream.firstBatch;
import static dev.depbloom.step.HandBuiltMemoryStream.hidden;
import static dev.depbloom.step.HandBuiltMemoryStream.row;
import static dev.depbloom.step.HandBuiltMemoryStream.secondBatch;
import static dev.depbloom.step.HandBuiltMemoryStream.updaterInput;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.depbloom.Kernels;
import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.RNNCellImpl;
import org.bytedeco.pytorch.StringTensorDict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Memory {@code time_delta: mail} (the TGN paper's and DyGLib's message delta t) on a hand-built
 * stream with JODIE's RNN updater, checked against libtorch's own RNNCell on concatenated inputs:
 * each mail carries its event's time minus its node's memory time before the event, and the update
 * encodes that interval, not the time since the memory's update at the read.
 */
@Tag(Kernels.TRAINS)
class MailTimeDeltaTest {
  private static final int DIM = HandBuiltMemoryStream.DIM;
  private static final int TIME_DIM = HandBuiltMemoryStream.TIME_DIM;
  private static final int CONTENT_DIM = 2 * DIM + HandBuiltMemoryStream.EDGE_DIM;
  private static final int MAIL_DIM = CONTENT_DIM + 1; // the time delta last

  private final HandBuiltMemoryStream stream =
      new HandBuiltMemoryStream(
          "memory: {type: node, dim_out: 4, dim_time: 3, memory_update: rnn, time_delta: mail}\n"
              + "gnn: {arch: identity, time_transform: jodie}\n",
          "jodie-mail");
  private final EventStream events = stream.events;

  @Test
  void eachMailCarriesItsEventTimeMinusTheMemoryTimeBeforeTheEvent() {
    try (StepScope scope = new StepScope();
        TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      NodeMemory memory = session.memory().view(0);
      session.replica().model().eval();
      step.evaluate(firstBatch(events), 0);
      assertEquals(MAIL_DIM, memory.mailboxTensor().size(1));
      // from fresh memory (time 0): node 0's last event is event 2 (t=3), node 1's event 1 (t=2)
      assertArrayEquals(new float[] {3, 2, 2, 3, 0}, deltas(memory));
      step.evaluate(secondBatch(events), 1);
      // event 3 (t=5) after memory times 3 and 2; event 4 (t=6) after 3 and 2
      assertArrayEquals(new float[] {5 - 3, 5 - 2, 6 - 2, 6 - 3, 0}, deltas(memory));
    }
  }

  @Test
  void theUpdateEncodesTheMailsDeltaNotTheTimeSinceTheMemorysUpdate() {
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

      // event 3 reads node 0 at t=5; its mail (event 2, t=3) carries 3 - 0 = 3, not 5 - 3
      float[] content = Arrays.copyOf(mail0, CONTENT_DIM);
      RNNCellImpl rnn = referenceRnn(model);
      float[] expected = expected(rnn, model, content, 3, mem0);
      assertArrayEquals(expected, row(memory.memoryTensor(), 0), 1e-6f);
      assertFalse(
          Arrays.equals(expected, expected(rnn, model, content, 5 - 3, mem0)),
          "the two intervals must give different memories, or the test could not tell them apart");
    }
  }

  @Test
  void aNodeWithoutMailIsUpdatedAlikeWhateverItsReadTime() {
    try (StepScope scope = new StepScope();
        TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      NodeMemory memory = session.memory().view(0);
      model.eval();
      step.evaluate(firstBatch(events), 0);
      // nodes 0..3 are first read at times 1 to 3 with an empty mail, whose delta is 0
      float[] fromZero =
          expected(referenceRnn(model), model, new float[CONTENT_DIM], 0, new float[DIM]);
      for (int v = 0; v < 4; v++) {
        assertArrayEquals(fromZero, row(memory.memoryTensor(), v), 1e-6f, "node " + v);
      }
    }
  }

  @Test
  void trainingAndTheReplayWriteTheSameDeltasAsEvaluation() {
    float[] evaluated;
    float[] replayed;
    float[] trained;
    try (StepScope scope = new StepScope()) {
      evaluated = firstBatchDeltas(Path.EVALUATE);
      replayed = firstBatchDeltas(Path.REPLAY);
      trained = firstBatchDeltas(Path.TRAIN);
    }
    // the run's times are relative to the first event: 0, 1, 2 for events 0 to 2
    assertArrayEquals(new float[] {2, 1, 1, 2, 0}, evaluated);
    assertArrayEquals(evaluated, replayed);
    assertArrayEquals(evaluated, trained);
  }

  private enum Path {
    EVALUATE,
    REPLAY,
    TRAIN
  }

  private float[] firstBatchDeltas(Path path) {
    try (TrainingSession session = stream.session();
        Steps step = new Steps(session)) {
      TemporalGnn model = session.replica().model();
      Batch batch = firstBatch(events.relativeToFirstEvent());
      switch (path) {
        case EVALUATE -> {
          model.eval();
          step.evaluate(batch, 0);
        }
        case REPLAY -> {
          model.eval();
          step.replay(batch, 0);
        }
        case TRAIN -> {
          model.train(true);
          step.train(0, 0, 3, 1);
        }
      }
      return deltas(session.memory().view(0));
    }
  }

  /** The time-delta column of every node's mail. */
  private static float[] deltas(NodeMemory memory) {
    return Tensors.toFloats(memory.mailboxTensor().select(1, CONTENT_DIM).contiguous());
  }

  /** libtorch's RNNCell with the updater's parameters, for concatenated {@code [mail || time]}. */
  private static RNNCellImpl referenceRnn(TemporalGnn model) {
    StringTensorDict p = model.named_parameters();
    RNNCellImpl rnn = new RNNCellImpl(CONTENT_DIM + TIME_DIM, DIM);
    try (NoGradGuard g = new NoGradGuard()) {
      rnn.weight_ih().copy_(p.get("memory_updater.rnn.weight_ih"));
      rnn.weight_hh().copy_(p.get("memory_updater.rnn.weight_hh"));
      rnn.bias_ih().copy_(p.get("memory_updater.rnn.bias_ih"));
      rnn.bias_hh().copy_(p.get("memory_updater.rnn.bias_hh"));
    }
    return rnn;
  }

  private static float[] expected(
      RNNCellImpl rnn, TemporalGnn model, float[] content, double dt, float[] memory) {
    try (NoGradGuard g = new NoGradGuard()) {
      return Tensors.toFloats(rnn.forward(updaterInput(model, content, dt), hidden(memory)));
    }
  }
}
