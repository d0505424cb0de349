package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Recorded work as a value: sums, totals, top operators. */
class OpWorkTest {
  private static OpWork work(Set<String> composites, long observed, OpWork.Op... ops) {
    OpTally t = new OpTally();
    for (OpWork.Op o : ops) {
      for (int i = 0; i < o.calls(); i++) {
        // each call carries an equal share of the totals
        t.add(
            o.name(),
            o.kind(),
            o.flops() / o.calls(),
            o.bytesRead() / o.calls(),
            o.bytesWritten() / o.calls());
      }
    }
    composites.forEach(t::inferredComposite);
    t.observed(observed);
    return t.toWork();
  }

  private static OpWork.Op op(String name, OpWork.Kind kind, long calls, long f, long r, long w) {
    return new OpWork.Op(name, kind, calls, f, r, w);
  }

  @Test
  void sumsOperatorByOperatorAndCountsViewsAsNoKernel() {
    OpWork a =
        work(
            Set.of("aten::x"),
            5,
            op("aten::mm", OpWork.Kind.KERNEL, 1, 100, 40, 20),
            op("aten::t", OpWork.Kind.VIEW, 2, 0, 0, 0));
    OpWork b =
        work(
            Set.of("aten::y"),
            3,
            op("aten::mm", OpWork.Kind.KERNEL, 2, 300, 80, 40),
            op("aten::erf", OpWork.Kind.UNRULED, 1, 0, 8, 8));
    OpWork sum = a.plus(b);
    assertEquals(op("aten::mm", OpWork.Kind.KERNEL, 3, 400, 120, 60), sum.op("aten::mm"));
    assertEquals(op("aten::t", OpWork.Kind.VIEW, 2, 0, 0, 0), sum.op("aten::t"));
    assertEquals(4, sum.kernels()); // 3 mm + 1 erf; the views are not kernels
    assertEquals(400, sum.flops());
    assertEquals(128, sum.bytesRead());
    assertEquals(68, sum.bytesWritten());
    assertEquals(8, sum.observedCalls());
    assertEquals(List.of("aten::erf"), sum.unruled());
    assertEquals(Set.of("aten::x", "aten::y"), sum.inferredComposites());
    assertEquals(sum, b.plus(a));
  }

  @Test
  void topOperatorsLeaveViewsOut() {
    OpWork w =
        work(
            Set.of(),
            3,
            op("aten::mm", OpWork.Kind.KERNEL, 1, 100, 40, 20),
            op("aten::copy_", OpWork.Kind.KERNEL, 1, 0, 50, 50),
            op("aten::view", OpWork.Kind.VIEW, 1, 0, 0, 0));
    assertEquals(List.of("aten::copy_", "aten::mm"), names(w.topByBytes(5)));
    assertEquals(List.of("aten::mm"), names(w.topByFlops(1)));
  }

  @Test
  void nothingPlusWorkIsThatWork() {
    OpWork w = work(Set.of(), 1, op("aten::mm", OpWork.Kind.KERNEL, 1, 1, 1, 1));
    assertSame(w, w.plus(OpWork.NONE));
    assertEquals(w, OpWork.NONE.plus(w));
    assertEquals(0, OpWork.NONE.kernels());
  }

  private static List<String> names(List<OpWork.Op> ops) {
    return ops.stream().map(OpWork.Op::name).toList();
  }
}
