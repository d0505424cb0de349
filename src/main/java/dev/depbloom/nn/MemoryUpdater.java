package dev.depbloom.nn;

import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;

/**
 * Turns stored memory and mail into the memory a batch reads (TGL's deferred update): applied with
 * gradient at the start of the batch that reads the node. Implementations: {@link GruMemoryUpdater}
 * (TGN), {@link RnnMemoryUpdater} (JODIE), {@link MailAttentionMemoryUpdater} (APAN).
 */
public abstract class MemoryUpdater extends Module {
  /** Updated memory per unique read: {@code [U, dim]}. */
  public abstract Tensor update(MemoryReads reads);
}
