package dev.depbloom.tensor;

import org.bytedeco.javacpp.PointerScope;

/**
 * Owns the native memory of every tensor created while it is open (on this thread), and frees it on
 * {@link #close()}. One scope per training step keeps native memory flat; the Java GC cannot see
 * native allocations, so nothing may be left to it (TENSOR-STACK.md, pitfall 3). A tensor that must
 * outlive the scope is kept with {@link Tensors#retain} and released by its owner.
 */
public final class StepScope implements AutoCloseable {
  private final PointerScope scope;

  public StepScope() {
    this.scope = new PointerScope();
  }

  @Override
  public void close() {
    scope.close();
  }
}
