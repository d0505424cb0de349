package dev.depbloom.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.tensor.OpWork;
import dev.depbloom.tensor.StepScope;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/**
 * A clock that records kernels charges each stage the operators it ran, and nothing else; a stage
 * timer sums the times clocks measured.
 */
class StageClockTest {
  @Test
  void recordsEachStagesOperatorsSeparatelyWhenAsked() {
    StageClock clock = new StageClock(true);
    try (StepScope scope = new StepScope()) {
      Tensor a = torch.ones(2, 2);
      clock.time(Stage.FETCH, () -> a.add(a));
      clock.time(Stage.TRAIN, () -> a.mm(a));
      clock.time(Stage.TRAIN, () -> a.mm(a));
    }
    OpWork fetch = clock.work(Stage.FETCH);
    OpWork train = clock.work(Stage.TRAIN);
    assertEquals(1, fetch.kernels());
    assertEquals(4, fetch.op("aten::add").flops()); // 4 additions
    assertNull(fetch.op("aten::mm"));
    assertEquals(2, train.kernels());
    assertEquals(2 * 16, train.op("aten::mm").flops()); // 2 x (2*2*2*2)
    assertSame(OpWork.NONE, clock.work(Stage.SAMPLE));

    List<Stage> spans = new ArrayList<>();
    clock.forEachSpan((stage, start, nanos) -> spans.add(stage));
    assertEquals(List.of(Stage.FETCH, Stage.TRAIN, Stage.TRAIN), spans);

    StageTimer total = new StageTimer();
    for (int i = 0; i < 2; i++) {
      for (Stage s : Stage.values()) {
        total.charge(s, clock.nanos(s));
      }
    }
    assertEquals(2 * clock.nanos(Stage.TRAIN), total.nanos(Stage.TRAIN));
    total.reset();
    assertEquals(0, total.nanos(Stage.TRAIN));
  }

  @Test
  void recordsNothingUnlessAsked() {
    StageClock clock = new StageClock(false);
    try (StepScope scope = new StepScope()) {
      Tensor a = torch.ones(2, 2);
      clock.time(Stage.TRAIN, () -> a.mm(a));
    }
    assertSame(OpWork.NONE, clock.work(Stage.TRAIN));
    assertEquals(1, countSpans(clock));
  }

  private static int countSpans(StageClock clock) {
    int[] n = {0};
    clock.forEachSpan((stage, start, nanos) -> n[0]++);
    return n[0];
  }
}
