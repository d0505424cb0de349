package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bytedeco.pytorch.StringTensorDict;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A checkpoint restores every parameter, and memory with its times, into a fresh session. */
class CheckpointTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan", "tgat", "dysat"})
  void everyParameterAndTheMemoryComeBack(String model) {
    EventStream events = TinyStreams.random(60, 700, 2, 4);
    Path file = dir.resolve(model + ".pt");
    List<float[]> saved;
    float[] memory = null;
    double[] times = null;
    try (StepScope scope = new StepScope();
        TrainingSession a = new TrainingSession(TinyStreams.tinyRun(events, model, 1))) {
      a.model().train(true);
      for (int i = 0; i < 3; i++) {
        a.step().train(a.batch(i, 100 * i, 100 * i + 100, 1, 2, 1), i);
      }
      Checkpoint.save(file, a.model(), a.optimizer(), a.memory(), 1, 3);
      saved = values(a.model().named_parameters());
      if (a.memory() != null) {
        memory = Tensors.toFloats(a.memory().memoryTensor());
        times = a.memory().lastUpdateTimes();
      }
    }
    assertTrue(Files.isRegularFile(file));
    assertArrayEquals(new long[] {1, 3}, Checkpoint.randomState(file));
    try (StepScope scope = new StepScope();
        TrainingSession b = new TrainingSession(TinyStreams.tinyRun(events, model, 99))) {
      List<float[]> fresh = values(b.model().named_parameters());
      assertTrue(differs(saved, fresh), "a different seed must start from other parameters");
      Checkpoint.load(file, b.model(), b.optimizer(), b.memory());
      List<float[]> loaded = values(b.model().named_parameters());
      assertEquals(saved.size(), loaded.size());
      for (int i = 0; i < saved.size(); i++) {
        assertArrayEquals(saved.get(i), loaded.get(i), "parameter " + i);
      }
      if (memory != null) {
        assertArrayEquals(memory, Tensors.toFloats(b.memory().memoryTensor()));
        assertArrayEquals(times, b.memory().lastUpdateTimes());
      }
    }
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
