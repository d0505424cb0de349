package dev.depbloom.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.tensor.Tensors;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The replay before testing writes memory without scoring. It must leave memory, mail and their
 * times exactly as a full evaluation pass over the same events does.
 */
class ReplayEquivalenceTest {
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "jodie", "apan"})
  void replayLeavesMemoryExactlyAsAFullEvaluationPass(String model) {
    EventStream events = TinyStreams.random(80, 1500, 3, 21);
    TrainingRun run = TinyStreams.tinyRun(events, model, 3);
    try (TrainingSession s = new TrainingSession(run)) {
      s.model().eval();
      List<int[]> bounds = s.bounds(0, 1200);
      s.resetTime();
      for (int i = 0; i < bounds.size(); i++) {
        s.step().evaluate(s.batch(i, bounds.get(i)[0], bounds.get(i)[1], 1, 5, 0), i);
      }
      float[] memory = Tensors.toFloats(s.memory().memoryTensor());
      float[] mail = Tensors.toFloats(s.memory().mailboxTensor());
      double[] times = s.memory().lastUpdateTimes();
      double[] mailTimes = s.memory().mailTimeValues();
      s.resetTime();
      for (int i = 0; i < bounds.size(); i++) {
        s.step().replay(s.batch(i, bounds.get(i)[0], bounds.get(i)[1], 0, 5, 0), i);
      }
      assertArrayEquals(memory, Tensors.toFloats(s.memory().memoryTensor()), 1e-6f);
      assertArrayEquals(mail, Tensors.toFloats(s.memory().mailboxTensor()), 1e-6f);
      assertArrayEquals(times, s.memory().lastUpdateTimes());
      assertArrayEquals(mailTimes, s.memory().mailTimeValues());
    }
  }
}
