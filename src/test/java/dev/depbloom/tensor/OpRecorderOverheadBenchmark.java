package dev.depbloom.tensor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import org.bytedeco.pytorch.LinearImpl;
import org.bytedeco.pytorch.LinearOptions;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * What recording costs per operator call: tiny operations (4x4, so the operation itself costs
 * little) timed with recording off, on, and off again after a recording, in interleaved rounds;
 * medians of the thread's CPU time (other processes on the machine count less than in wall time).
 * Not a unit test. Run after {@code mvn package}: {@code java -cp
 * target/test-classes:target/classes:target/lib/* dev.depbloom.tensor.OpRecorderOverheadBenchmark}
 * with {@code -Drounds=15 -Dcalls=20000}.
 */
public final class OpRecorderOverheadBenchmark {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private OpRecorderOverheadBenchmark() {}

  public static void main(String[] args) {
    int rounds = Integer.getInteger("rounds", 15);
    int calls = Integer.getInteger("calls", 20000);
    torch.set_num_threads(1);
    Tensor a = torch.ones(4, 4);
    Tensor b = torch.ones(4, 4);
    LinearImpl linear = new LinearImpl(new LinearOptions(4, 4));
    bench("add (1 kernel)", calls, rounds, () -> a.add(b));
    bench("mm (1 kernel, 1 view inside)", calls, rounds, () -> a.mm(b));
    bench("t (3 view calls)", calls, rounds, a::t);
    bench("linear (composite: t, addmm)", calls, rounds, () -> linear.forward(a));
  }

  private static void bench(String name, int calls, int rounds, Supplier<Tensor> op) {
    long[] off = new long[rounds];
    long[] on = new long[rounds];
    long[] offAfter = new long[rounds];
    long observed = 0;
    time(op, calls); // warm-up
    for (int r = 0; r < rounds; r++) {
      off[r] = time(op, calls);
      try (OpRecording rec = OpRecorder.startOnThisThread()) {
        on[r] = time(op, calls);
        observed = rec.work().observedCalls() / calls;
      }
      offAfter[r] = time(op, calls);
    }
    double offNs = median(off);
    double onNs = median(on);
    System.out.printf(
        Locale.ROOT,
        "%-32s off %6.0f ns, on %6.0f ns, off after recording %6.0f ns per op;"
            + " %d calls observed per op: %5.0f ns per observed call%n",
        name,
        offNs,
        onNs,
        median(offAfter),
        observed,
        (onNs - offNs) / observed);
  }

  /** Mean CPU nanoseconds of this thread per op over {@code calls} ops, each in its own scope. */
  private static long time(Supplier<Tensor> op, int calls) {
    long t0 = CPU.getCurrentThreadCpuTime();
    for (int i = 0; i < calls; i++) {
      try (StepScope scope = new StepScope()) {
        op.get();
      }
    }
    return (CPU.getCurrentThreadCpuTime() - t0) / calls;
  }

  private static double median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
