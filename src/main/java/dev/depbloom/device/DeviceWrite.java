package dev.depbloom.device;

import dev.depbloom.memory.MemoryWrite;

/** A logical device's memory write of a round, for the memory view it was computed from. */
public record DeviceWrite(int device, int view, MemoryWrite write) {}
