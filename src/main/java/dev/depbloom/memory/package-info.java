/**
 * Node memory: {@link dev.depbloom.memory.NodeMemory} (memory, mailbox, times), a batch's {@link
 * dev.depbloom.memory.MemoryWrite} and a device's {@link dev.depbloom.memory.DeviceWrite} as
 * values, the {@link dev.depbloom.memory.MemoryStore} of memory views with row versions, waits for
 * pending writes and window-end merges ({@link dev.depbloom.memory.MemoryStore#none()} for
 * memory-less models), and whole view rows for exchanges. Imports {@code tensor} only.
 */
package dev.depbloom.memory;
