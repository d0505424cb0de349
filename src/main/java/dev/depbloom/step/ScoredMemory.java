package dev.depbloom.step;

import dev.depbloom.memory.MemoryStore;

/**
 * Memory a test protocol scores against: view {@code view} of {@code store}. The test pass scores
 * the continued and TGL's protocols side by side, each on its own memory.
 */
public record ScoredMemory(MemoryStore store, int view) {}
