package dev.depbloom.tensor;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Folds nested operator calls into the kernels they ran, so that nothing is counted twice. Calls
 * nest (an operator dispatches others inside it); a call's children are held until it ends, and
 * then its rule ({@link OpCostRules}) settles them: a kernel replaces its children with itself
 * priced by its rule, a view drops them, a composite keeps them (or, when no kernel ran inside it,
 * counts as a view), and an unknown operator keeps them if a kernel ran inside it (an inferred
 * composite) and otherwise counts as an unruled kernel. When the outermost call ends, what remains
 * is the thread's kernels and views, handed to the recording. Pure Java: the observer feeds it.
 */
final class OpFolding {
  private OpCall[] frames = new OpCall[16];
  private int depth;

  // the settled calls not yet handed over, in order
  private String[] names = new String[64];
  private OpWork.Kind[] kinds = new OpWork.Kind[64];
  private long[] flops = new long[64];
  private long[] read = new long[64];
  private long[] written = new long[64];
  private int pending;
  private long observed; // calls opened since the last hand-over
  private final Set<String> inferred = new HashSet<>();

  /**
   * Opens a call of operator {@code name}; the caller fills in its shapes if the rule needs them.
   */
  OpCall push(String name, OpCostRules.Rule rule) {
    if (depth == frames.length) {
      frames = Arrays.copyOf(frames, depth * 2);
    }
    OpCall c = frames[depth];
    if (c == null) {
      c = frames[depth] = new OpCall();
    }
    depth++;
    observed++;
    c.name = name;
    c.rule = rule;
    c.kernelInside = false;
    c.mark = pending;
    c.inputs = 0;
    c.outputs = 0;
    return c;
  }

  /**
   * Whether the innermost open call is a kernel or view (or inside one): what runs inside it is
   * dropped when it ends, so it need not be looked at.
   */
  boolean insideSettledCall() {
    if (depth == 0) {
      return false;
    }
    OpCostRules.Kind k = frames[depth - 1].rule.kind();
    return k == OpCostRules.Kind.KERNEL
        || k == OpCostRules.Kind.VIEW
        || k == OpCostRules.Kind.IGNORED;
  }

  /** Opens a call inside a kernel or view ({@link #insideSettledCall()}), never counted. */
  void pushIgnored() {
    push(null, OpCostRules.IGNORED);
  }

  /** The innermost open call. */
  OpCall top() {
    if (depth == 0) {
      throw new IllegalStateException("an operator ended that was not seen starting");
    }
    return frames[depth - 1];
  }

  int depth() {
    return depth;
  }

  /**
   * Closes the innermost call (its outputs filled in) and settles it; when it was the outermost,
   * hands everything settled to {@code sink}.
   */
  void pop(OpTally sink) {
    OpCall c = top();
    depth--;
    RuntimeException failed = null;
    boolean kernel = false;
    try {
      kernel = settle(c);
    } catch (RuntimeException e) { // a rule that does not fit the call's shapes
      drop(c);
      failed = e;
    }
    if (kernel && depth > 0) {
      frames[depth - 1].kernelInside = true;
    }
    if (depth == 0) {
      for (int i = 0; i < pending; i++) {
        sink.add(names[i], kinds[i], flops[i], read[i], written[i]);
        names[i] = null;
      }
      pending = 0;
      for (String n : inferred) {
        sink.inferredComposite(n);
      }
      inferred.clear();
      sink.observed(observed);
      observed = 0;
    }
    if (failed != null) {
      throw new IllegalStateException("pricing " + c.name + " failed", failed);
    }
  }

  /** Settles a call against its children; true when it leaves a kernel behind. */
  private boolean settle(OpCall c) {
    switch (c.rule.kind()) {
      case IGNORED:
        return false;
      case VIEW:
        drop(c);
        append(c.name, OpWork.Kind.VIEW, 0, 0, 0);
        return false;
      case COMPOSITE:
        if (c.kernelInside) {
          return true;
        }
        drop(c);
        append(c.name, OpWork.Kind.VIEW, 0, 0, 0);
        return false;
      case KERNEL:
        drop(c);
        c.rule.pricing().price(c);
        append(c.name, OpWork.Kind.KERNEL, c.flops, c.bytesRead, c.bytesWritten);
        return true;
      default: // UNKNOWN
        if (c.kernelInside) {
          inferred.add(c.name);
          return true;
        }
        drop(c);
        c.rule.pricing().price(c);
        append(c.name, OpWork.Kind.UNRULED, c.flops, c.bytesRead, c.bytesWritten);
        return true;
    }
  }

  private void drop(OpCall c) {
    for (int i = c.mark; i < pending; i++) {
      names[i] = null;
    }
    pending = c.mark;
  }

  private void append(String name, OpWork.Kind kind, long f, long r, long w) {
    if (pending == names.length) {
      int n = pending * 2;
      names = Arrays.copyOf(names, n);
      kinds = Arrays.copyOf(kinds, n);
      flops = Arrays.copyOf(flops, n);
      read = Arrays.copyOf(read, n);
      written = Arrays.copyOf(written, n);
    }
    names[pending] = name;
    kinds[pending] = kind;
    flops[pending] = f;
    read[pending] = r;
    written[pending] = w;
    pending++;
  }
}
