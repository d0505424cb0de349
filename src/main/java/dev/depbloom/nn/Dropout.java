package dev.depbloom.nn;

import java.util.function.Supplier;
import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.GeneratorOptional;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Dropout that draws its masks from the calling thread's generator when one is set ({@link
 * #withGenerator}), else from libtorch's default generator. Step workers run shards of one batch in
 * parallel; with the shared default generator the order of their draws, and so the run, would
 * depend on thread timing. A worker's generator is seeded from the batch's stream and the shard
 * index, so a run is reproducible for a given thread budget.
 */
public final class Dropout {
  private static final ThreadLocal<Generator> GENERATOR = new ThreadLocal<>();

  private Dropout() {}

  /**
   * {@code x} with each element zeroed with probability {@code p} and the rest scaled by 1/(1-p).
   */
  public static Tensor apply(Tensor x, double p, boolean training) {
    if (!training || p == 0) {
      return x;
    }
    Generator g = GENERATOR.get();
    if (g == null) {
      return torch.dropout(x, p, true);
    }
    if (x.is_cpu()) {
      Tensor mask =
          torch.empty_like(x).bernoulli_(1 - p, new GeneratorOptional(g)).div_(new Scalar(1 - p));
      return x.mul(mask);
    }
    // the generator is a host one: on another device the mask is drawn on the host, then placed
    Tensor mask =
        torch
            .empty(x.sizes().vec().get())
            .bernoulli_(1 - p, new GeneratorOptional(g))
            .div_(new Scalar(1 - p));
    return x.mul(mask.to(x.device(), mask.scalar_type()));
  }

  /** Runs {@code body} with dropout masks drawn from {@code generator} on this thread. */
  public static <T> T withGenerator(Generator generator, Supplier<T> body) {
    Generator previous = GENERATOR.get();
    GENERATOR.set(generator);
    try {
      return body.get();
    } finally {
      if (previous == null) {
        GENERATOR.remove();
      } else {
        GENERATOR.set(previous);
      }
    }
  }
}
