package dev.depbloom.tensor;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** A recording's running totals per operator; {@link #toWork()} makes them a value. */
final class OpTally {
  private static final class Totals {
    final OpWork.Kind kind;
    long calls;
    long flops;
    long read;
    long written;

    Totals(OpWork.Kind kind) {
      this.kind = kind;
    }
  }

  private final Map<String, Totals> byOp = new HashMap<>();
  private final Set<String> inferredComposites = new HashSet<>();
  private long observed;
  private final KernelLog kernels = new KernelLog();

  void add(String name, OpWork.Kind kind, long flops, long read, long written) {
    if (kind != OpWork.Kind.VIEW) {
      kernels.add(flops, read + written);
    }
    // an operator's kind never changes: its rule fixes it (an unknown one's composite calls leave
    // no entry)
    Totals t = byOp.computeIfAbsent(name, k -> new Totals(kind));
    t.calls++;
    t.flops += flops;
    t.read += read;
    t.written += written;
  }

  void observed(long calls) {
    observed += calls;
  }

  void inferredComposite(String name) {
    inferredComposites.add(name);
  }

  void add(OpTally other) {
    for (Map.Entry<String, Totals> e : other.byOp.entrySet()) {
      Totals o = e.getValue();
      Totals t = byOp.computeIfAbsent(e.getKey(), k -> new Totals(o.kind));
      t.calls += o.calls;
      t.flops += o.flops;
      t.read += o.read;
      t.written += o.written;
    }
    inferredComposites.addAll(other.inferredComposites);
    observed += other.observed;
    kernels.addAll(other.kernels);
  }

  OpWork toWork() {
    Map<String, OpWork.Op> ops = new HashMap<>();
    for (Map.Entry<String, Totals> e : byOp.entrySet()) {
      Totals t = e.getValue();
      ops.put(e.getKey(), new OpWork.Op(e.getKey(), t.kind, t.calls, t.flops, t.read, t.written));
    }
    KernelLog log = new KernelLog();
    log.addAll(kernels);
    return new OpWork(ops, inferredComposites, observed, log);
  }
}
