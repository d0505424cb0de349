package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bytedeco.pytorch.BoolOptional;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.LinearOptions;
import org.bytedeco.pytorch.MultiheadAttentionImpl;
import org.bytedeco.pytorch.MultiheadAttentionOptions;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/**
 * The recorder against libtorch: recorded work equals hand-counted work for a linear layer (forward
 * and backward) and libtorch's multi-head attention, only the recording thread is seen, and nothing
 * is recorded unless asked. Float32 throughout: 4 bytes per element.
 */
class OpRecorderTest {
  @Test
  void linearLayerForwardAndBackwardIsTheHandCountedWork() {
    LinearImpl linear = new LinearImpl(new LinearOptions(3, 2)); // W [2,3], b [2]
    Tensor x = torch.ones(4, 3).requires_grad_(true); // [4,3]
    OpWork work;
    try (StepScope scope = new StepScope()) {
      try (OpRecording r = OpRecorder.startOnThisThread()) {
        Tensor loss = linear.forward(x).sum();
        torch.grad(
            new TensorVector(loss),
            new TensorVector(x, linear.weight(), linear.bias()),
            new TensorVector(),
            new BoolOptional(),
            false,
            true);
        work = r.work(); // every call that has ended is in
      }
    }
    // forward: y = addmm(b, x, W^T): 2*M*N*K = 2*4*2*3 = 48 + the bias add M*N = 8 -> 56 FLOPs;
    //   reads b 2 + x 12 + W 6 = 20 elements (80 B), writes y 8 (32 B)
    // loss = sum(y): 8 FLOPs, reads 8 (32 B), writes 1 (4 B)
    // torch.grad seeds dL/dL = ones_like(loss): fill_ writes 1 element (4 B), 0 FLOPs
    // dL/dy = expand(1 -> [4,2]): a view; read by the kernels below at its logical size, 8 elements
    // dL/dx = mm(dy [4,2], W [2,3]): 2*4*3*2 = 48 FLOPs, reads 8 + 6 (56 B), writes 12 (48 B)
    // dL/dW = mm(dy^T [2,4], x [4,3]): 2*2*3*4 = 48 FLOPs, reads 8 + 12 (80 B), writes 6 (24 B)
    // dL/db = sum(dy, dim 0): 8 FLOPs, reads 8 (32 B), writes 2 (8 B); then a view to [2]
    assertOp(work, "aten::addmm", 1, 56, 80, 32);
    assertOp(work, "aten::sum", 2, 8 + 8, 32 + 32, 4 + 8);
    assertOp(work, "aten::fill_", 1, 0, 0, 4);
    assertOp(work, "aten::mm", 2, 48 + 48, 56 + 80, 48 + 24);
    assertEquals(6, work.kernels());
    assertEquals(56 + 16 + 96, work.flops());
    assertEquals(80 + 64 + 136, work.bytesRead());
    assertEquals(32 + 12 + 4 + 72, work.bytesWritten());
    assertEquals(List.of(), work.unruled());
    assertEquals(Set.of(), work.inferredComposites());
    assertEquals(0, work.op("aten::t").kernels()); // W^T: a view, seen but free
    assertNull(work.op("aten::linear")); // a composite: its addmm is counted, not itself
    // kernel by kernel in the order they ran: addmm, sum, then fill_ and the three backward kernels
    KernelLog log = work.kernelLog();
    assertEquals(6, log.size());
    assertEquals(56, log.flops(0));
    assertEquals(80 + 32, log.bytes(0));
    assertEquals(work.flops(), log.totalFlops());
    assertEquals(work.bytesRead() + work.bytesWritten(), log.totalBytes());
  }

  /**
   * libtorch's MultiheadAttention (embedding E 4, 2 heads of width 2, sequence 3, batch 1), as
   * self-attention without gradient, in eval mode (no dropout), with the attention weights averaged
   * over heads (its default).
   */
  @Test
  void multiHeadAttentionForwardIsTheHandCountedWork() {
    MultiheadAttentionImpl attention =
        new MultiheadAttentionImpl(new MultiheadAttentionOptions(4, 2));
    attention.eval();
    OpWork work;
    try (StepScope scope = new StepScope();
        NoGradGuard noGrad = new NoGradGuard()) {
      Tensor x = torch.ones(3, 1, 4); // [L, N, E]: query = key = value
      try (OpRecording r = OpRecorder.startOnThisThread()) {
        attention.forward(x, x, x);
        work = r.work(); // every call that has ended is in
      }
    }
    // is query key, is key value: 2 equal, each 12 comparisons reading 2 x 12 elements (96 B)
    assertOp(work, "aten::equal", 2, 2 * 12, 2 * 96, 0);
    // in-projection x [3,4] . W_in^T [4,12]: 2*3*12*4 = 288 FLOPs, reads 12 + 48 (240 B),
    //   writes 36 (144 B); out-projection [3,4] . W_out^T [4,4]: 2*3*4*4 = 96, reads 12 + 16
    //   (112 B), writes 12 (48 B)
    assertOp(work, "aten::mm", 2, 288 + 96, 240 + 112, 144 + 48);
    // their biases, added in place: [3,1,12] += [12]: 36 FLOPs, reads 36 + 12 (192 B), writes 36
    //   (144 B); [3,1,4] += [4]: 12, reads 12 + 4 (64 B), writes 12 (48 B)
    assertOp(work, "aten::add_", 2, 36 + 12, 192 + 64, 144 + 48);
    // q scaled by 1/sqrt(2): 12 FLOPs, reads 12 (48 B), writes 12 (48 B)
    assertOp(work, "aten::mul", 1, 12, 48, 48);
    // k and v are slices of the projection, and the heads' output is transposed back: each made
    //   contiguous by one copy of 12 elements (48 B read, 48 B written)
    assertOp(work, "aten::copy_", 3, 0, 3 * 48, 3 * 48);
    // scores q [2,3,2] . k^T [2,2,3]: 2*2*3*3*2 = 72 FLOPs, reads 12 + 12 (96 B), writes 18 (72 B);
    //   weights [2,3,3] . v [2,3,2]: 2*2*3*2*3 = 72, reads 18 + 12 (120 B), writes 12 (48 B)
    assertOp(work, "aten::bmm", 2, 72 + 72, 96 + 120, 72 + 48);
    // softmax over [2,3,3]: 5 FLOPs per element (max, subtract, exp, sum, divide) = 90
    assertOp(work, "aten::_softmax", 1, 90, 72, 72);
    // weights averaged over the heads: sum [1,2,3,3] -> [1,3,3] (18 FLOPs, reads 72 B, writes
    //   36 B), then divided by 2 (9 FLOPs, reads 36 B, writes 36 B)
    assertOp(work, "aten::sum", 1, 18, 72, 36);
    assertOp(work, "aten::div", 1, 9, 36, 36);
    assertEquals(15, work.kernels());
    assertEquals(24 + 384 + 48 + 12 + 144 + 90 + 18 + 9, work.flops());
    assertEquals(192 + 352 + 256 + 48 + 144 + 216 + 72 + 72 + 36, work.bytesRead());
    assertEquals(192 + 192 + 48 + 144 + 120 + 72 + 36 + 36, work.bytesWritten());
    assertEquals(List.of(), work.unruled());
    assertEquals(Set.of(), work.inferredComposites());
  }

  @Test
  void operatorsOnAnotherThreadAreNotRecorded() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    CountDownLatch otherRecording = new CountDownLatch(1);
    CountDownLatch mineDone = new CountDownLatch(1);
    try {
      OpWork mine;
      Future<OpWork> theirs;
      try (StepScope scope = new StepScope()) {
        Tensor a = torch.ones(2, 2);
        try (OpRecording r = OpRecorder.startOnThisThread()) {
          // the other thread records its own work while this one records: each sees its own
          theirs =
              other.submit(
                  () -> {
                    try (StepScope s = new StepScope();
                        OpRecording own = OpRecorder.startOnThisThread()) {
                      Tensor b = torch.ones(3, 3);
                      b.mul(new Scalar(2.0));
                      otherRecording.countDown();
                      assertTrue(mineDone.await(30, TimeUnit.SECONDS));
                      b.mul(new Scalar(3.0));
                      return own.work();
                    }
                  });
          assertTrue(otherRecording.await(30, TimeUnit.SECONDS));
          a.add(a);
          mineDone.countDown();
          theirs.get(30, TimeUnit.SECONDS);
          mine = r.work();
        }
      }
      assertEquals(1, mine.kernels());
      assertOp(mine, "aten::add", 1, 4, 32, 16);
      assertNull(mine.op("aten::mul"));
      // theirs: ones (a composite: empty, then fill_ 9 elements) and two mul of 9 elements
      OpWork t = theirs.get();
      assertOp(t, "aten::mul", 2, 18, 72, 72);
      assertOp(t, "aten::fill_", 1, 0, 0, 36);
      assertNull(t.op("aten::add"));
      assertEquals(0, OpRecorder.unattributedCalls());
    } finally {
      other.shutdownNow();
    }
  }

  @Test
  void recordingIsOffByDefault() {
    assertFalse(OpRecorder.recordingOnThisThread());
    assertFalse(torch.hasThreadLocalCallbacks()); // libtorch builds no RecordFunction at all
    assertFalse(torch.hasGlobalCallbacks());
    try (StepScope scope = new StepScope()) {
      OpRecording r = OpRecorder.startOnThisThread();
      assertTrue(OpRecorder.recordingOnThisThread());
      assertTrue(torch.hasThreadLocalCallbacks());
      torch.ones(2).add(torch.ones(2));
      r.close();
    }
    assertFalse(OpRecorder.recordingOnThisThread());
    assertFalse(torch.hasThreadLocalCallbacks());
  }

  @Test
  void aNestedRecordingsWorkCountsInTheOuterOneToo() {
    try (StepScope scope = new StepScope()) {
      Tensor a = torch.ones(2, 2);
      OpRecording outer = OpRecorder.startOnThisThread();
      a.add(a);
      OpRecording inner = OpRecorder.startOnThisThread();
      a.mul(a);
      inner.close();
      outer.close();
      assertEquals(1, inner.work().kernels());
      assertOp(inner.work(), "aten::mul", 1, 4, 32, 16);
      assertEquals(2, outer.work().kernels());
      assertOp(outer.work(), "aten::mul", 1, 4, 32, 16);
      assertOp(outer.work(), "aten::add", 1, 4, 32, 16);
    }
  }

  @Test
  void anOperatorWithoutARuleCountsAsOneKernelReadingItsInputsAndWritingItsOutputs() {
    try (StepScope scope = new StepScope();
        OpRecording r = OpRecorder.startOnThisThread()) {
      torch.erf(torch.empty(5)); // no rule: 0 FLOPs, reads 5 elements, writes 5
      assertOp(r.work(), "aten::erf", 1, 0, 20, 20);
      assertEquals(OpWork.Kind.UNRULED, r.work().op("aten::erf").kind());
      assertEquals(List.of("aten::erf"), r.work().unruled());
    }
  }

  @Test
  void aRecordingMustBeClosedOnItsOwnThread() throws Exception {
    OpRecording r = OpRecorder.startOnThisThread();
    try {
      ExecutorService other = Executors.newSingleThreadExecutor();
      try {
        Future<?> closing = other.submit(r::close);
        Exception e = assertThrows(Exception.class, () -> closing.get(30, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
      } finally {
        other.shutdownNow();
      }
    } finally {
      r.close();
    }
    assertFalse(OpRecorder.recordingOnThisThread());
  }

  private static void assertOp(
      OpWork work, String name, long calls, long flops, long read, long written) {
    OpWork.Op op = work.op(name);
    assertTrue(op != null, name + " not recorded in " + work.ops().keySet());
    assertEquals(
        List.of(calls, flops, read, written),
        List.of(op.calls(), op.flops(), op.bytesRead(), op.bytesWritten()),
        name + ": calls, FLOPs, bytes read, bytes written");
  }
}
