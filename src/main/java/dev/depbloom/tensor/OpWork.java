package dev.depbloom.tensor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tensor work a piece of code ran, as {@link OpRecorder} recorded it: per operator, how often
 * it ran and what it cost by the rules of {@link OpCostRules} (FLOPs, bytes read, bytes written). A
 * value: {@link #plus} sums two of them. Every operator is either a kernel ({@link Kind#KERNEL},
 * priced by a rule; {@link Kind#UNRULED}, priced by the default rule of an unknown operator) or
 * free ({@link Kind#VIEW}: views, allocations and composites that ran no kernel, 0 cost). Composite
 * operators that ran kernels are not listed: their kernels are. {@link #inferredComposites()} names
 * the unknown operators that were taken for composites because kernels ran inside them.
 */
public final class OpWork {
  /** How an operator was counted. */
  public enum Kind {
    /** A kernel priced by its operator's rule. */
    KERNEL,
    /**
     * A kernel of an operator without a rule: one kernel, 0 FLOPs, its tensor inputs read and its
     * tensor outputs written. Listed so that a rule can be added.
     */
    UNRULED,
    /** Not a kernel: a view, an allocation, or a composite that ran no kernel. Costs nothing. */
    VIEW
  }

  /**
   * One operator's totals: {@code calls} runs, {@code flops} floating-point operations, {@code
   * bytesRead} and {@code bytesWritten} of tensor data.
   */
  public record Op(
      String name, Kind kind, long calls, long flops, long bytesRead, long bytesWritten) {
    /** Kernels launched: {@code calls}, or 0 for a {@link Kind#VIEW}. */
    public long kernels() {
      return kind == Kind.VIEW ? 0 : calls;
    }

    public long bytes() {
      return bytesRead + bytesWritten;
    }

    Op plus(Op o) {
      return new Op(
          name,
          kind,
          calls + o.calls,
          flops + o.flops,
          bytesRead + o.bytesRead,
          bytesWritten + o.bytesWritten);
    }
  }

  /** No work. */
  public static final OpWork NONE = new OpWork(Map.of(), Set.of(), 0, new KernelLog());

  private final Map<String, Op> ops; // by operator name, sorted
  private final Set<String> inferredComposites; // sorted
  private final long observedCalls;

  private final KernelLog kernelLog; // every kernel in the order it ran; never modified

  OpWork(
      Map<String, Op> ops, Set<String> inferredComposites, long observedCalls, KernelLog kernels) {
    this.kernelLog = kernels;
    this.ops = Collections.unmodifiableMap(new TreeMap<>(ops));
    this.inferredComposites = Collections.unmodifiableSet(new TreeSet<>(inferredComposites));
    this.observedCalls = observedCalls;
  }

  /**
   * Every operator call the recorder saw, composites and the calls inside kernels included: what
   * the recording's overhead scales with.
   */
  public long observedCalls() {
    return observedCalls;
  }

  /** Per operator name (as libtorch names it, e.g. {@code aten::addmm}), in name order. */
  public Map<String, Op> ops() {
    return ops;
  }

  /** The totals of operator {@code name}, or null when it did not run. */
  public Op op(String name) {
    return ops.get(name);
  }

  /** Kernels launched: the calls of every operator that is not a {@link Kind#VIEW}. */
  public long kernels() {
    long n = 0;
    for (Op o : ops.values()) {
      n += o.kernels();
    }
    return n;
  }

  public long flops() {
    long n = 0;
    for (Op o : ops.values()) {
      n += o.flops();
    }
    return n;
  }

  public long bytesRead() {
    long n = 0;
    for (Op o : ops.values()) {
      n += o.bytesRead();
    }
    return n;
  }

  public long bytesWritten() {
    long n = 0;
    for (Op o : ops.values()) {
      n += o.bytesWritten();
    }
    return n;
  }

  /** Names of the operators priced by the default rule ({@link Kind#UNRULED}). */
  public List<String> unruled() {
    List<String> out = new ArrayList<>();
    for (Op o : ops.values()) {
      if (o.kind() == Kind.UNRULED) {
        out.add(o.name());
      }
    }
    return out;
  }

  /** Unknown operators that ran kernels inside them, so that their kernels were counted instead. */
  public Set<String> inferredComposites() {
    return inferredComposites;
  }

  /** The {@code n} kernel operators that move the most bytes, most first. */
  public List<Op> topByBytes(int n) {
    return top(n, Comparator.comparingLong(Op::bytes));
  }

  /** The {@code n} kernel operators with the most FLOPs, most first. */
  public List<Op> topByFlops(int n) {
    return top(n, Comparator.comparingLong(Op::flops));
  }

  private List<Op> top(int n, Comparator<Op> by) {
    List<Op> kernels = new ArrayList<>();
    for (Op o : ops.values()) {
      if (o.kind() != Kind.VIEW) {
        kernels.add(o);
      }
    }
    kernels.sort(by.reversed().thenComparing(Op::name));
    return List.copyOf(kernels.subList(0, Math.min(n, kernels.size())));
  }

  /** This work and {@code other}'s, operator by operator. */
  public OpWork plus(OpWork other) {
    if (other.observedCalls == 0 && other.ops.isEmpty()) {
      return this;
    }
    Map<String, Op> sum = new TreeMap<>(ops);
    for (Op o : other.ops.values()) {
      sum.merge(o.name(), o, Op::plus);
    }
    Set<String> composites = new TreeSet<>(inferredComposites);
    composites.addAll(other.inferredComposites);
    KernelLog kernels = new KernelLog();
    kernels.addAll(kernelLog);
    kernels.addAll(other.kernelLog);
    return new OpWork(sum, composites, observedCalls + other.observedCalls, kernels);
  }

  /**
   * Every kernel one by one, in the order they ran (this work's, then a summand's): what a device
   * model prices kernel by kernel. Read it; do not add to it.
   */
  public KernelLog kernelLog() {
    return kernelLog;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpWork w
        && ops.equals(w.ops)
        && inferredComposites.equals(w.inferredComposites)
        && observedCalls == w.observedCalls;
  }

  @Override
  public int hashCode() {
    return (ops.hashCode() * 31 + inferredComposites.hashCode()) * 31
        + Long.hashCode(observedCalls);
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "%d kernels, %.6f GFLOP, %.3f MB read, %.3f MB written",
        kernels(),
        flops() / 1e9,
        bytesRead() / 1e6,
        bytesWritten() / 1e6);
  }
}
