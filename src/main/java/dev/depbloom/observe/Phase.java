package dev.depbloom.observe;

/** A pass over events that progress is reported for; {@link #key()} is how it is printed. */
public enum Phase {
  /** A training epoch's rounds. */
  TRAIN("train"),
  /** Validation at an epoch's end. */
  VALIDATION("val"),
  /** TGL's replay of the training and validation events before the test. */
  REPLAY("replay"),
  /** The test pass. */
  TEST("test");

  private final String key;

  Phase(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }
}
