package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.step.Steps;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bytedeco.pytorch.StringTensorDict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A checkpoint restores every parameter, and memory with its times, into a fresh session. */
@Tag(Kernels.TRAINS)
class CheckpointTest {
  @TempDir Path dir;

  /**
   * Parameters, optimizer state, memory, mailbox and times come back: a session restored from the
   * checkpoint and the session that wrote it train one more identical round to the same parameters,
   * which fails if the optimizer's moments were not restored.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan", "tgat", "dysat"})
  void everyParameterTheOptimizerStateAndTheMemoryComeBack(String model) {
    EventStream events = TinyStreams.random(60, 700, 2, 4);
    Path file = dir.resolve(model + ".pt");
    try (StepScope scope = new StepScope();
        TrainingSession a = new TrainingSession(TinyStreams.tinyRun(events, model, 1).session());
        Steps stepsA = new Steps(a);
        TrainingSession b = new TrainingSession(TinyStreams.tinyRun(events, model, 1).session());
        Steps stepsB = new Steps(b)) {
      a.replica().model().train(true);
      for (int i = 0; i < 3; i++) {
        stepsA.train(i, 100 * i, 100 * i + 100, 1);
      }
      Checkpoint.save(file, a.replica().model(), a.replica().optimizer(), views(a), 1, 3);
      assertTrue(Files.isRegularFile(file));
      assertArrayEquals(new long[] {1, 3}, Checkpoint.randomState(file));
      assertTrue(differs(values(a), values(b)), "trained parameters must differ from fresh ones");

      Checkpoint.load(file, b.replica().model(), b.replica().optimizer(), views(b));
      assertSame(values(a), values(b));
      if (!a.memory().isNone()) {
        NodeMemory ma = a.memory().view(0);
        NodeMemory mb = b.memory().view(0);
        assertArrayEquals(Tensors.toFloats(ma.memoryTensor()), Tensors.toFloats(mb.memoryTensor()));
        assertArrayEquals(
            Tensors.toFloats(ma.mailboxTensor()), Tensors.toFloats(mb.mailboxTensor()));
        assertArrayEquals(ma.lastUpdateTimes(), mb.lastUpdateTimes());
        assertArrayEquals(ma.mailTimeValues(), mb.mailTimeValues());
        assertArrayEquals(ma.nextSlots(), mb.nextSlots());
      }
      b.replica().model().train(true);
      stepsA.train(3, 300, 400, 1);
      stepsB.train(3, 300, 400, 1);
      assertSame(values(a), values(b));
    }
  }

  private static List<NodeMemory> views(TrainingSession s) {
    return s.memory().isNone() ? List.of() : s.memory().views();
  }

  private static void assertSame(List<float[]> expected, List<float[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "parameter " + i);
    }
  }

  private static List<float[]> values(TrainingSession s) {
    return values(s.replica().model().named_parameters());
  }

  private static List<float[]> values(StringTensorDict params) {
    List<float[]> out = new java.util.ArrayList<>();
    for (long i = 0; i < params.size(); i++) {
      out.add(Tensors.toFloats(params.get(i).value()));
    }
    return out;
  }

  private static boolean differs(List<float[]> a, List<float[]> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
        return true;
      }
    }
    return false;
  }
}
