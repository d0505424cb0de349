package dev.depbloom.profile;

/** Which memory rows a batch reads, for {@link HotColdRows}. */
public enum ReadStyle {
  /**
   * The true sources and destinations of the batch's events (JODIE, APAN read their roots' memory).
   * Negatives are left out: they are random, and a hot/cold split must be known before the batch
   * runs; a negative that hits a written row only adds hot rows.
   */
  ROOTS("roots"),

  /**
   * The roots plus their {@link HotColdRows#RECENT_NEIGHBORS} most recent neighbors strictly before
   * the event time (TGN's one layer of 10 recent neighbors).
   */
  ROOTS_AND_RECENT_NEIGHBORS("roots+recent10");

  private final String label;

  ReadStyle(String label) {
    this.label = label;
  }

  /** Short name used in tables and JSON. */
  public String label() {
    return label;
  }
}
