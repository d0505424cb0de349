package dev.depbloom.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.Kernels;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Without gradient an attention layer whose targets are (nearly) all full computes on the padded
 * {@code [T, K]} grid ({@link TemporalAttentionLayer}'s grid path); it must give every target the
 * representation the per-sample path gives (with gradient, in eval mode), including a target with
 * fewer samples than the fanout and one with none, and a second pass that takes the kept stream
 * part must give them again.
 */
@Tag(Kernels.TRAINS)
class AttentionGridTest {
  private static final int FANOUT = 4;
  private static final int NODE = 5;
  private static final int EDGE = 3;
  private static final int TIME = 4;
  private static final int OUT = 6;

  /**
   * Of every 16 targets, 14 full, one with 3 samples and one with none: 59 of 64 slots; {@code
   * sources} rows to sample from (fewer than the grid's slots: the table is projected once).
   */
  private static AttentionInputs inputs(int targets, int sources, StreamParts parts) {
    List<int[]> samples = new ArrayList<>(); // {target, j}
    for (int t = 0; t < targets; t++) {
      int count = t % 16 < 14 ? FANOUT : t % 16 == 14 ? 3 : 0;
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
      source[i] = random.nextInt(sources);
      edge[i] = random.nextInt(7);
      since[i] = random.nextFloat() * 500;
    }
    torch.manual_seed(5);
    return new AttentionInputs(
        torch.randn(targets, NODE),
        torch.randn(sources, NODE),
        Tensors.indices(source),
        torch.randn(7, EDGE),
        Tensors.indices(edge),
        Tensors.floats(since, s),
        Tensors.indices(target),
        Tensors.indices(slot),
        targets,
        FANOUT,
        parts);
  }

  @Test
  void theGridGivesEveryTargetThePerSampleRepresentation() {
    assertGridEqualsPerSample(NODE, EDGE, TIME, 16, 30); // TGN's and TGAT's layers
  }

  @Test
  void withoutEdgeOrTimeInputsTheBiasAlonePlaysTheirPart() {
    assertGridEqualsPerSample(NODE, 0, 0, 16, 30);
  }

  @Test
  void withoutNodeInputsTheStreamPartAloneMakesKeysAndValues() {
    assertGridEqualsPerSample(0, EDGE, TIME, 16, 30);
  }

  @Test
  void piecesOfTheGridGiveWhatTheWholeGives() {
    long piece = TemporalAttentionLayer.PIECE_BYTES / (4L * FANOUT * 2 * OUT); // targets
    int targets = (int) (2.5 * piece);
    // more source rows than slots: gathered, then projected, piece by piece
    assertGridEqualsPerSample(NODE, EDGE, TIME, targets, 5 * targets * FANOUT);
    assertGridEqualsPerSample(NODE, 0, 0, targets, 30);
  }

  private static void assertGridEqualsPerSample(
      int node, int edge, int time, int targets, int sources) {
    try (StepScope scope = new StepScope();
        StreamParts parts = new StreamParts()) {
      torch.manual_seed(1);
      TemporalAttentionLayer layer = new TemporalAttentionLayer(node, edge, time, 2, OUT, 0.1, 0.1);
      layer.eval();
      AttentionInputs in = inputs(targets, sources, null);
      assertEquals(59 * (targets / 16) + Math.min(targets % 16, 14) * FANOUT, in.sampleCount());
      float[] perSample = Tensors.toFloats(layer.forward(in).detach()); // with gradient
      float[] grid;
      float[] again;
      try (NoGradGuard g = new NoGradGuard()) {
        grid = Tensors.toFloats(layer.forward(inputs(targets, sources, parts)));
        again =
            Tensors.toFloats(
                layer.forward(inputs(targets, sources, parts))); // takes the kept stream part
      }
      assertArrayEquals(perSample, grid, 1e-6f);
      assertArrayEquals(grid, again);
    }
  }
}
