package dev.depbloom.memory;

import java.util.concurrent.TimeUnit;

/** A read of a memory row waited longer than the store's timeout for a pending write. */
public final class MemoryReadTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MemoryReadTimeoutException(int round, int view, int node, long timeoutNanos) {
    super(
        "round "
            + round
            + ": the read of memory row "
            + node
            + " (memory view "
            + view
            + ") waited "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
            + " ms for a pending write that was never committed");
  }
}
