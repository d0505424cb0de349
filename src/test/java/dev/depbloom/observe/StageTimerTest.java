package dev.depbloom.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.depbloom.tensor.OpWork;
import dev.depbloom.tensor.StepScope;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/** A stage timer that records work charges each stage the operators it ran, and nothing else. */
class StageTimerTest {
  @Test
  void recordsEachStagesOperatorsSeparatelyWhenAsked() {
    StageTimer timer = new StageTimer().recordWork();
    try (StepScope scope = new StepScope()) {
      Tensor a = torch.ones(2, 2);
      timer.run(Stage.FETCH, () -> a.add(a));
      timer.time(Stage.TRAIN, () -> a.mm(a));
      timer.time(Stage.TRAIN, () -> a.mm(a));
    }
    OpWork fetch = timer.work(Stage.FETCH);
    OpWork train = timer.work(Stage.TRAIN);
    assertEquals(1, fetch.kernels());
    assertEquals(4, fetch.op("aten::add").flops()); // 4 additions
    assertNull(fetch.op("aten::mm"));
    assertEquals(2, train.kernels());
    assertEquals(2 * 16, train.op("aten::mm").flops()); // 2 x (2*2*2*2)
    assertSame(OpWork.NONE, timer.work(Stage.SAMPLE));

    StageTimer total = new StageTimer();
    total.add(timer);
    total.add(timer);
    assertEquals(4, total.work(Stage.TRAIN).kernels());
    timer.reset();
    assertSame(OpWork.NONE, timer.work(Stage.TRAIN));
  }

  @Test
  void recordsNothingUnlessAsked() {
    StageTimer timer = new StageTimer();
    try (StepScope scope = new StepScope()) {
      Tensor a = torch.ones(2, 2);
      timer.time(Stage.TRAIN, () -> a.mm(a));
    }
    assertSame(OpWork.NONE, timer.work(Stage.TRAIN));
  }
}
