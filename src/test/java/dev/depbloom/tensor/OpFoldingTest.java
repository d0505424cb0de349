package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Nested calls folded into kernels, fed by hand as the observer feeds them (start: push and shapes;
 * end: outputs and pop). Float32 tensors: 4 bytes per element.
 */
class OpFoldingTest {
  private final OpFolding folding = new OpFolding();
  private final OpTally sink = new OpTally();

  @Test
  void aKernelCountsOnceWhateverRunsInsideIt() {
    // CPU addmm copies its bias into the output with copy_ before the product
    start("aten::addmm", new long[] {2}, new long[] {4, 3}, new long[] {3, 2});
    assertTrue(folding.insideSettledCall());
    folding.pushIgnored(); // the copy_: not looked at
    end(8);
    end(8);
    OpWork w = sink.toWork();
    assertEquals(1, w.kernels());
    assertNull(w.op("aten::copy_"));
    assertOp(w.op("aten::addmm"), OpWork.Kind.KERNEL, 1, 2 * 4 * 2 * 3 + 8, 80, 32);
    assertEquals(2, w.observedCalls());
  }

  @Test
  void aCompositeCountsTheKernelsItRanNotItself() {
    start("aten::linear");
    start("aten::t");
    end();
    start("aten::addmm", new long[] {2}, new long[] {4, 3}, new long[] {3, 2});
    end(8);
    end();
    OpWork w = sink.toWork();
    assertNull(w.op("aten::linear"));
    assertOp(w.op("aten::t"), OpWork.Kind.VIEW, 1, 0, 0, 0);
    assertOp(w.op("aten::addmm"), OpWork.Kind.KERNEL, 1, 56, 80, 32);
    assertEquals(1, w.kernels());
  }

  @Test
  void aCompositeThatRanNoKernelIsAView() {
    start("aten::reshape", new long[] {4, 3});
    start("aten::view");
    end();
    end();
    OpWork w = sink.toWork();
    assertOp(w.op("aten::reshape"), OpWork.Kind.VIEW, 1, 0, 0, 0);
    assertNull(w.op("aten::view")); // folded into the composite
    assertEquals(0, w.kernels());
  }

  @Test
  void anUnknownOperatorWithAKernelInsideIsAnInferredComposite() {
    start("aten::made_up", new long[] {5});
    start("aten::exp", new long[] {5});
    end(5);
    end(5);
    OpWork w = sink.toWork();
    assertNull(w.op("aten::made_up"));
    assertEquals(Set.of("aten::made_up"), w.inferredComposites());
    assertOp(w.op("aten::exp"), OpWork.Kind.KERNEL, 1, 5, 20, 20);
  }

  @Test
  void anUnknownLeafIsOneUnruledKernelMovingItsInputsAndOutputs() {
    start("aten::made_up", new long[] {5}, new long[] {2, 5});
    start("aten::empty"); // allocations are views: they do not make it a composite
    end();
    end(5);
    OpWork w = sink.toWork();
    assertOp(w.op("aten::made_up"), OpWork.Kind.UNRULED, 1, 0, (5 + 10) * 4, 5 * 4);
    assertEquals(List.of("aten::made_up"), w.unruled());
    assertNull(w.op("aten::empty"));
    assertEquals(Set.of(), w.inferredComposites());
  }

  @Test
  void compositesNestedInCompositesKeepTheirKernels() {
    start(OpCostRules.BACKWARD_NODE_PREFIX + "MmBackward0");
    start("aten::matmul");
    start("aten::mm", new long[] {2, 3}, new long[] {3, 4});
    end(8);
    end();
    start("aten::mm", new long[] {3, 2}, new long[] {2, 4});
    end(12);
    end();
    OpWork w = sink.toWork();
    // reads (2*3 + 3*4) * 4 B and (3*2 + 2*4) * 4 B, writes 8 and 12 elements
    assertOp(w.op("aten::mm"), OpWork.Kind.KERNEL, 2, 2 * 2 * 4 * 3 + 2 * 3 * 4 * 2, 72 + 56, 80);
    assertNull(w.op("aten::matmul"));
    assertEquals(2, w.kernels());
  }

  @Test
  void workIsHandedOverOnlyWhenTheOutermostCallEnds() {
    start("aten::linear");
    start("aten::mm", new long[] {1, 1}, new long[] {1, 1});
    end(1);
    assertTrue(sink.toWork().ops().isEmpty());
    end();
    assertFalse(sink.toWork().ops().isEmpty());
  }

  @Test
  void anEndWithoutAStartIsAnError() {
    assertThrows(IllegalStateException.class, folding::top);
  }

  /** Opens a call whose tensor inputs are float32 of the given shapes. */
  private void start(String name, long[]... inputs) {
    OpCall c = folding.push(name, OpCostRules.of(name));
    c.startInputs(inputs.length);
    for (int i = 0; i < inputs.length; i++) {
      c.shapes[i] = inputs[i];
      c.inElement[i] = 4;
    }
  }

  /** Closes the innermost call, whose tensor outputs are float32 of the given element counts. */
  private void end(long... outputNumels) {
    OpCall c = folding.top();
    c.startOutputs(outputNumels.length);
    for (int i = 0; i < outputNumels.length; i++) {
      c.outNumel[i] = outputNumels[i];
      c.outElement[i] = 4;
    }
    folding.pop(sink);
  }

  private static void assertOp(
      OpWork.Op op, OpWork.Kind kind, long calls, long flops, long read, long written) {
    assertEquals(
        List.of(kind, calls, flops, read, written),
        List.of(op.kind(), op.calls(), op.flops(), op.bytesRead(), op.bytesWritten()));
  }
}
