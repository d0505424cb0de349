package dev.depbloom.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/**
 * Without gradient an attention layer whose targets are (nearly) all full computes on the padded
 * {@code [T, K]} grid ({@link TemporalAttentionLayer}'s grid path); it must give every target the
 * representation the per-sample path gives (with gradient, in eval mode), including a target with
 * fewer samples than the fanout and one with none, and a second pass that takes the kept stream
 * part must give them again.
 */
class AttentionGridTest {
  private static final int TARGETS = 16;
  private static final int FANOUT = 4;
  private static final int NODE = 5;
  private static final int EDGE = 3;
  private static final int TIME = 4;
  private static final int SOURCES = 30;

  /** Targets 0..13 full, target 14 with 3 samples, target 15 with none: 59 of 64 slots. */
  private static AttentionInputs inputs(StreamParts parts) {
    List<int[]> samples = new ArrayList<>(); // {target, j}
    for (int t = 0; t < TARGETS; t++) {
      int count = t < 14 ? FANOUT : t == 14 ? 3 : 0;
      for (int j = 0; j < count; j++) {
        samples.add(new int[] {t, j});
      }
    }
    int s = samples.size();
    Random random = new Random(3);
    int[] target = new int[s];
    int[] slot = new int[s];
    int[] source = new int[s];
    int[] edge = new int[s];
    float[] since = new float[s];
    for (int i = 0; i < s; i++) {
      target[i] = samples.get(i)[0];
      slot[i] = target[i] * FANOUT + samples.get(i)[1];
      source[i] = random.nextInt(SOURCES);
      edge[i] = random.nextInt(7);
      since[i] = random.nextFloat() * 500;
    }
    torch.manual_seed(5);
    return new AttentionInputs(
        torch.randn(TARGETS, NODE),
        torch.randn(SOURCES, NODE),
        Tensors.indices(source),
        torch.randn(7, EDGE),
        Tensors.indices(edge),
        Tensors.floats(since, s),
        Tensors.indices(target),
        Tensors.indices(slot),
        TARGETS,
        FANOUT,
        parts);
  }

  @Test
  void theGridGivesEveryTargetThePerSampleRepresentation() {
    assertGridEqualsPerSample(NODE, EDGE, TIME); // TGN's and TGAT's layers
  }

  @Test
  void withoutEdgeOrTimeInputsTheBiasAlonePlaysTheirPart() {
    assertGridEqualsPerSample(NODE, 0, 0);
  }

  @Test
  void withoutNodeInputsTheStreamPartAloneMakesKeysAndValues() {
    assertGridEqualsPerSample(0, EDGE, TIME);
  }

  private static void assertGridEqualsPerSample(int node, int edge, int time) {
    try (StepScope scope = new StepScope();
        StreamParts parts = new StreamParts()) {
      torch.manual_seed(1);
      TemporalAttentionLayer layer = new TemporalAttentionLayer(node, edge, time, 2, 6, 0.1, 0.1);
      layer.eval();
      AttentionInputs in = inputs(null);
      assertEquals(59, in.sampleCount());
      float[] perSample = Tensors.toFloats(layer.forward(in).detach()); // with gradient
      float[] grid;
      float[] again;
      try (NoGradGuard g = new NoGradGuard()) {
        grid = Tensors.toFloats(layer.forward(inputs(parts)));
        again = Tensors.toFloats(layer.forward(inputs(parts))); // takes the kept stream part
      }
      assertArrayEquals(perSample, grid, 1e-6f);
      assertArrayEquals(grid, again);
    }
  }
}
