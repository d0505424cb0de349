package dev.depbloom.nn;

import java.util.function.Function;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;

/**
 * Turns stored memory and mail into the memory a batch reads (TGL's deferred update): applied with
 * gradient at the start of the batch that reads the node. Implementations: {@link GruMemoryUpdater}
 * (TGN), {@link RnnMemoryUpdater} (JODIE), {@link MailAttentionMemoryUpdater} (APAN).
 */
public abstract class MemoryUpdater extends Module {
  /** Updated memory per unique read: {@code [U, dim]}. */
  public Tensor update(MemoryReads reads) {
    return update(reads, null);
  }

  /**
   * As {@link #update(MemoryReads)}, the projection of the time deltas kept in (or taken from)
   * {@code parts} when it is not null and the deltas are equal: the same reads updated from another
   * memory, without gradient.
   */
  public abstract Tensor update(MemoryReads reads, StreamParts parts);

  /**
   * {@code base + project(deltas)}, the projection's rows taken from {@code parts} where they hold
   * one of equal deltas (row by row; the result is the same either way).
   */
  protected final Tensor plusTimePart(
      Tensor base, StreamParts parts, Tensor deltas, Function<Tensor, Tensor> project) {
    return parts == null
        ? base.add(project.apply(deltas))
        : parts.addRowwise(this, base, deltas, project);
  }
}
