package dev.depbloom.tensor;

import org.bytedeco.pytorch.Generator;
import org.bytedeco.pytorch.global.torch;

/** Random generators of the binding that threads own (dropout masks drawn per worker). */
public final class Generators {
  private Generators() {}

  /** One CPU generator per worker, worker {@code w}'s seeded with {@code w}; reseeded per task. */
  public static Generator[] perWorker(int workers) {
    Generator[] out = new Generator[workers];
    for (int w = 0; w < workers; w++) {
      out[w] = torch.make_generator_cpu(w);
    }
    return out;
  }
}
