package dev.depbloom.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.Kernels;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import org.bytedeco.pytorch.GRUCellImpl;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.RNNCellImpl;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptional;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The custom modules compute their functions without repeated work (projections per distinct row,
 * weights split by input part). Each is checked, value and gradients, against the plain formulation
 * on concatenated inputs built from libtorch's own modules and ops, and the gradients of one
 * parameter are also checked against central finite differences.
 */
@Tag(Kernels.TRAINS)
class GradientCheckTest {
  private static final int MAIL = 6;
  private static final int DIM = 4;
  private static final int TIME = 3;

  /** Memory reads of 5 distinct nodes read 9 times (some nodes at several times). */
  private static MemoryReads reads(int mailbox) {
    torch.manual_seed(3);
    Tensor memory = torch.randn(5, DIM).requires_grad_(true);
    Tensor mail = torch.randn(5, mailbox, MAIL).requires_grad_(true);
    Tensor readNode = Tensors.indices(new int[] {0, 1, 1, 2, 3, 3, 3, 4, 0});
    Tensor since = Tensors.floats(new float[] {0, 1, 5, -2, 3, 300, 7e4f, 2, 9}, 9);
    float[] sm = new float[9 * mailbox];
    for (int i = 0; i < sm.length; i++) {
      sm[i] = (i * 37 % 11) - 2;
    }
    return new MemoryReads(memory, mail, readNode, since, Tensors.floats(sm, 9, mailbox));
  }

  @Test
  void gruUpdaterEqualsGruCellOnConcatenatedInputsWithTheSameGradients() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(1);
      GruMemoryUpdater updater = new GruMemoryUpdater(MAIL, DIM, TIME);
      MemoryReads r = reads(1);
      Tensor ours = updater.update(r);
      GRUCellImpl cell = updater.cell();
      Tensor x =
          torch.cat(
              new TensorVector(
                  r.mail().view(5, MAIL).index_select(0, r.readNode()),
                  updater.time().encode(r.sinceUpdate())),
              1);
      Tensor reference = cell.forward(x, r.memory().index_select(0, r.readNode()));
      assertClose(reference, ours, 1e-6f);
      Tensor[] inputs = {r.memory(), r.mail(), cell.weight_ih(), cell.weight_hh(), cell.bias_hh()};
      assertSameGradients(ours, reference, inputs);
    }
  }

  @Test
  void rnnUpdaterEqualsRnnCellOnConcatenatedInputsWithTheSameGradients() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(1);
      RnnMemoryUpdater updater = new RnnMemoryUpdater(MAIL, DIM, TIME);
      MemoryReads r = reads(1);
      Tensor ours = updater.update(r);
      RNNCellImpl cell = updater.cell();

      Tensor time =
          torch
              .linear(
                  r.sinceUpdate().view(-1, 1),
                  updater.named_parameters().get("time.w.weight"),
                  new TensorOptional(updater.named_parameters().get("time.w.bias")))
              .cos();
      Tensor x =
          torch.cat(
              new TensorVector(r.mail().view(5, MAIL).index_select(0, r.readNode()), time), 1);
      Tensor reference = cell.forward(x, r.memory().index_select(0, r.readNode()));
      assertClose(reference, ours, 1e-6f);
      assertSameGradients(ours, reference, new Tensor[] {r.memory(), r.mail(), cell.weight_ih()});
    }
  }

  @Test
  void attentionEqualsDensePaddedAttentionOnConcatenatedInputsWithTheSameGradients() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(2);
      int nodeDim = 5;
      int edgeDim = 3;
      int heads = 2;
      int out = 4;
      TemporalAttentionLayer layer =
          new TemporalAttentionLayer(nodeDim, edgeDim, TIME, heads, out, 0, 0);
      layer.eval();
      // 3 targets with 2, 0 and 3 neighbors (fanout 3); sources table of 4 rows; 2 distinct edges
      Tensor targets = torch.randn(3, nodeDim).requires_grad_(true);
      Tensor sources = torch.randn(4, nodeDim).requires_grad_(true);
      Tensor edges = torch.randn(2, edgeDim).requires_grad_(true);
      int[] target = {0, 0, 2, 2, 2};
      int[] slot = {0, 1, 6, 7, 8};
      int[] source = {1, 3, 0, 2, 3};
      int[] edgeRow = {0, 1, 1, 0, 0};
      float[] since = {1, 20, 3, 0.5f, 1e3f};
      AttentionInputs in =
          new AttentionInputs(
              targets,
              sources,
              Tensors.indices(source),
              edges,
              Tensors.indices(edgeRow),
              Tensors.floats(since, 5),
              Tensors.indices(target),
              Tensors.indices(slot),
              3,
              3,
              null);
      Tensor ours = layer.forward(in);
      Tensor reference = denseAttention(layer, in, target, slot, heads, out);
      assertClose(reference, ours, 1e-5f);
      assertSameGradients(ours, reference, new Tensor[] {targets, sources, edges});
    }
  }

  /** TGL's layer written plainly: concatenated K/V inputs, padded [T, K] softmax with a mask. */
  private static Tensor denseAttention(
      TemporalAttentionLayer layer,
      AttentionInputs in,
      int[] target,
      int[] slot,
      int heads,
      int out) {
    var p = layer.named_parameters();
    Tensor te = timeEncode(p, in.sinceEdge());
    Tensor kvIn =
        torch.cat(
            new TensorVector(
                in.sources().index_select(0, in.sourceIndex()),
                in.edgeFeatures().index_select(0, in.edgeIndex()),
                te),
            1);
    Tensor kv = torch.linear(kvIn, p.get("w_kv.weight"), new TensorOptional(p.get("w_kv.bias")));
    Tensor qIn =
        torch.cat(new TensorVector(in.targets(), timeEncode(p, torch.zeros(3)).expand(3, TIME)), 1);
    Tensor q = torch.linear(qIn, p.get("w_q.weight"), new TensorOptional(p.get("w_q.bias")));
    int dh = out / heads;
    Tensor k = kv.narrow(1, 0, out);
    Tensor v = kv.narrow(1, out, out);
    Tensor kPad = torch.zeros(9, out).index_copy(0, in.slot(), k).view(3, 3, heads, dh);
    Tensor vPad = torch.zeros(9, out).index_copy(0, in.slot(), v).view(3, 3, heads, dh);
    boolean[] valid = new boolean[9];
    for (int s : slot) {
      valid[s] = true;
    }
    Tensor mask = Tensors.mask(valid, 9).view(3, 3, 1);
    Tensor score = torch.leaky_relu(q.view(3, 1, heads, dh).mul(kPad).sum(3), new Scalar(0.2));
    Tensor att = score.masked_fill(mask.logical_not(), new Scalar(-1e30)).softmax(1).mul(mask);
    Tensor agg = att.unsqueeze(3).mul(vPad).sum(1).reshape(3, out);
    Tensor h =
        torch
            .linear(
                torch.cat(new TensorVector(agg, in.targets()), 1),
                p.get("w_out.weight"),
                new TensorOptional(p.get("w_out.bias")))
            .relu();
    return torch.layer_norm(
        h,
        new long[] {out},
        new TensorOptional(p.get("norm.weight")),
        new TensorOptional(p.get("norm.bias")),
        1e-5,
        false);
  }

  private static Tensor timeEncode(org.bytedeco.pytorch.StringTensorDict p, Tensor dt) {
    return torch
        .linear(dt.view(-1, 1), p.get("time.w.weight"), new TensorOptional(p.get("time.w.bias")))
        .cos();
  }

  @Test
  void mailAttentionGradientMatchesFiniteDifferences() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(4);
      MailAttentionMemoryUpdater updater =
          new MailAttentionMemoryUpdater(MAIL, DIM, TIME, 3, 2, 0, 0);
      updater.eval();
      MemoryReads r = reads(3);
      Tensor weights = Tensors.floats(new float[] {0.3f, -1, 2, 0.5f}, 1, DIM);
      Tensor loss = updater.update(r).mul(weights).sum();
      loss.backward();
      float[] analytic = Tensors.toFloats(r.mail().grad());
      float[] numeric = new float[analytic.length];
      float[] mail = Tensors.toFloats(r.mail());
      double h = 1e-2;
      try (NoGradGuard g = new NoGradGuard()) {
        for (int i = 0; i < mail.length; i++) {
          numeric[i] =
              (float)
                  ((lossAt(updater, r, mail, i, h, weights)
                          - lossAt(updater, r, mail, i, -h, weights))
                      / (2 * h));
        }
      }
      assertArrayEquals(numeric, analytic, 2e-3f);
    }
  }

  private static double lossAt(
      MailAttentionMemoryUpdater u, MemoryReads r, float[] mail, int i, double delta, Tensor w) {
    float[] m = mail.clone();
    m[i] += (float) delta;
    MemoryReads shifted =
        new MemoryReads(
            r.memory(),
            Tensors.floats(m, 5, 3, MAIL),
            r.readNode(),
            r.sinceUpdate(),
            r.sinceMail());
    return u.update(shifted).mul(w).sum().item_double();
  }

  @Test
  void jodieProjectionScalesByOnePlusALinearFunctionOfTheRelativeDelay() {
    try (StepScope scope = new StepScope()) {
      torch.manual_seed(5);
      JodieTimeProjection p = new JodieTimeProjection(DIM);
      Tensor h = torch.ones(2, DIM);
      Tensor delta = Tensors.floats(new float[] {0, 0.5f}, 2);
      float[] out = Tensors.toFloats(p.forward(h, delta));
      float[] w = Tensors.toFloats(p.named_parameters().get("time_emb.weight"));
      float[] b = Tensors.toFloats(p.named_parameters().get("time_emb.bias"));
      for (int j = 0; j < DIM; j++) {
        assertEquals(1 + b[j], out[j], 1e-6);
        assertEquals(1 + 0.5f * w[j] + b[j], out[DIM + j], 1e-6);
      }
    }
  }

  private static void assertClose(Tensor expected, Tensor actual, float tolerance) {
    assertArrayEquals(Tensors.toFloats(expected), Tensors.toFloats(actual), tolerance);
  }

  /** d(sum(out * c))/d(input) equal for both formulations, for every input. */
  private static void assertSameGradients(Tensor ours, Tensor reference, Tensor[] inputs) {
    torch.manual_seed(9);
    Tensor c = torch.randn(ours.size(0), ours.size(1));
    for (Tensor input : inputs) {
      Tensor g1 = grad(ours.mul(c).sum(), input);
      Tensor g2 = grad(reference.mul(c).sum(), input);
      assertArrayEquals(Tensors.toFloats(g2), Tensors.toFloats(g1), 1e-5f);
    }
  }

  private static Tensor grad(Tensor scalar, Tensor input) {
    TensorVector g =
        torch.grad(
            new TensorVector(scalar),
            new TensorVector(input),
            new TensorVector(),
            new org.bytedeco.pytorch.BoolOptional(true),
            false,
            false);
    return g.get(0);
  }
}
