package dev.depbloom.api;

/**
 * Called while a batch is published, after its memory write and before its neighbor index entries,
 * node ids and version: a test delays there to show that readers never see the gap.
 */
@FunctionalInterface
interface PublishHook {
  PublishHook NONE = () -> {};

  void memoryWritten();
}
