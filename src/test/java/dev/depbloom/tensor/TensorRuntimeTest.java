package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;

/**
 * Freed native memory goes back to the operating system only when released: a thread's tensors,
 * freed under a tensor still alive above them in its arena, stay resident until {@link
 * TensorRuntime#releaseFreedMemory()} (the rows of a schedule comparison, one after another).
 */
class TensorRuntimeTest {
  private static final long MB = 1L << 20;
  private static final int PIECES = 6144; // of 64 KB each: 384 MB, below any mmap threshold

  @Test
  void releaseFreedMemoryHandsBackWhatAFinishedThreadFreed() throws InterruptedException {
    AtomicReference<Tensor> pin = new AtomicReference<>();
    long before = Pointer.physicalBytes();
    Thread t =
        new Thread(
            () -> {
              try (StepScope scope = new StepScope()) {
                for (int i = 0; i < PIECES; i++) {
                  torch.ones(16 * 1024); // [16384] floats, every page touched
                }
                Tensor last = torch.ones(16 * 1024); // allocated above the others: pins them
                last.retainReference();
                pin.set(last);
              }
            });
    t.start();
    t.join();
    try {
      long kept = Pointer.physicalBytes();
      assumeTrue(kept - before > 200 * MB, "the allocator kept the freed pieces resident");
      TensorRuntime.releaseFreedMemory();
      long after = Pointer.physicalBytes();
      assertTrue(
          kept - after > 150 * MB,
          "resident " + kept / MB + " MB before the release, " + after / MB + " MB after");
    } finally {
      pin.get().releaseReference();
    }
  }
}
