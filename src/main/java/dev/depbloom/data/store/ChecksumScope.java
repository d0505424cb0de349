package dev.depbloom.data.store;

/**
 * Which column checksums {@link EventStoreReader} verifies. The event columns are small next to
 * wide features and are always verified; verifying features reads every page of them once.
 */
public enum ChecksumScope {
  /** Source, destination, time, split label and node id columns. */
  EVENT_COLUMNS,
  /** Every column, features included. */
  ALL_COLUMNS
}
