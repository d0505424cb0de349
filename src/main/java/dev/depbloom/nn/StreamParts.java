package dev.depbloom.nn;

import dev.depbloom.tensor.Tensors;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bytedeco.pytorch.Tensor;

/**
 * The parts of one plan's forward pass that do not depend on memory values, kept for a second pass
 * over the same plan with other memory: the test scores both protocols on the same sampled
 * neighborhoods, and the second pass reuses what the first computed. Only for passes without
 * gradient.
 *
 * <ul>
 *   <li>An attention layer's edge and time projections depend only on the sampled neighborhood
 *       ({@link #computeIfAbsent}).
 *   <li>A memory updater's time projection depends on the time since each read node's last update
 *       or mail. Two memories that saw the same events share those times for most nodes (the
 *       continued memory and TGL's replay both end at the last validation event; they differ where
 *       the replay's batches, cut across the training/validation boundary, kept other mails), so
 *       the projection is reused row by row where the times are equal ({@link #addRowwise}).
 * </ul>
 *
 * Each part is keyed by the module that computed it; its tensors are retained past their step's
 * scope and released by {@link #close()}.
 */
public final class StreamParts implements AutoCloseable {
  private record Part(Tensor input, Tensor value) {}

  // by owner, then piece (MemoryUpdater updates in pieces; an attention layer's part is piece 0)
  private final Map<Object, Map<Integer, Part>> parts = new IdentityHashMap<>();

  /** The part {@code owner} computed for this plan, computing it on first use. */
  Tensor computeIfAbsent(Object owner, Supplier<Tensor> compute) {
    return byPiece(owner)
        .computeIfAbsent(0, piece -> new Part(null, Tensors.retain(compute.get())))
        .value();
  }

  private Map<Integer, Part> byPiece(Object owner) {
    return parts.computeIfAbsent(owner, o -> new HashMap<>());
  }

  /**
   * {@code base + project(input)}, computed in place in {@code base} (the caller's own fresh
   * tensor) and row by row equal to computing it whole: rows whose {@code input} (first dimension:
   * rows) equals that of the part {@code owner} kept for piece {@code piece} take the kept part's
   * rows, the others are projected afresh. The first call per piece keeps its part for the next
   * ones.
   */
  Tensor addRowwise(
      Object owner, int piece, Tensor base, Tensor input, Function<Tensor, Tensor> project) {
    Map<Integer, Part> byPiece = byPiece(owner);
    Part p = byPiece.get(piece);
    if (p == null || !Arrays.equals(p.input().sizes().vec().get(), input.sizes().vec().get())) {
      Tensor value = project.apply(input);
      if (p == null) {
        byPiece.put(piece, new Part(Tensors.retain(input), Tensors.retain(value)));
      }
      return base.add_(value);
    }
    if (input.size(0) == 0) {
      return base.add_(p.value());
    }
    // the rows where any delta differs (NaN differs from itself: projected afresh too)
    Tensor differ = p.input().ne(input).view(input.size(0), -1).any(1).nonzero().view(-1);
    Tensor freshBase = differ.size(0) > 0 ? base.index_select(0, differ) : null;
    Tensor out = base.add_(p.value());
    if (freshBase != null) {
      out.index_copy_(0, differ, freshBase.add_(project.apply(input.index_select(0, differ))));
    }
    return out;
  }

  private static void release(Part p) {
    Tensors.release(p.input());
    Tensors.release(p.value());
  }

  @Override
  public void close() {
    for (Map<Integer, Part> byPiece : parts.values()) {
      for (Part p : byPiece.values()) {
        release(p);
      }
    }
    parts.clear();
  }
}
