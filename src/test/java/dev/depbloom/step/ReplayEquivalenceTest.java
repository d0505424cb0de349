package dev.depbloom.step;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.train.TrainingRun;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The replay before testing writes memory without scoring. It must leave memory, mail and their
 * times exactly as a full evaluation pass over the same events does.
 */
@Tag(Kernels.TRAINS)
class ReplayEquivalenceTest {
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "jodie", "apan"})
  void replayLeavesMemoryExactlyAsAFullEvaluationPass(String model) {
    EventStream events = TinyStreams.random(80, 1500, 3, 21);
    TrainingRun run = TinyStreams.tinyRun(events, model, 3);
    try (TrainingSession s = new TrainingSession(run.session());
        Steps steps = new Steps(s)) {
      s.replica().model().eval();
      NodeMemory m = s.memory().view(0);
      List<int[]> bounds = s.bounds(0, 1200);
      s.resetView(0);
      for (int i = 0; i < bounds.size(); i++) {
        steps.evaluate(s.batch(i, bounds.get(i)[0], bounds.get(i)[1], 1, 5, 0), i);
      }
      float[] memory = Tensors.toFloats(m.memoryTensor());
      float[] mail = Tensors.toFloats(m.mailboxTensor());
      double[] times = m.lastUpdateTimes();
      double[] mailTimes = m.mailTimeValues();
      s.resetView(0);
      for (int i = 0; i < bounds.size(); i++) {
        steps.replay(s.batch(i, bounds.get(i)[0], bounds.get(i)[1], 0, 5, 0), i);
      }
      assertArrayEquals(memory, Tensors.toFloats(m.memoryTensor()), 1e-6f);
      assertArrayEquals(mail, Tensors.toFloats(m.mailboxTensor()), 1e-6f);
      assertArrayEquals(times, m.lastUpdateTimes());
      assertArrayEquals(mailTimes, m.mailTimeValues());
    }
  }
}
