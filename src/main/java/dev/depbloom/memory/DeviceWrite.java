package dev.depbloom.memory;

/**
 * A logical device's memory write of a round, for the memory view it was computed from: the one
 * value a write travels as from the device step to the commit (and between processes). Closing it
 * frees the write's tensors.
 */
public record DeviceWrite(int device, int view, MemoryWrite write) implements AutoCloseable {
  @Override
  public void close() {
    write.close();
  }
}
