package dev.depbloom.observe;

/** Receives the measured costs of every training round (e.g. to project them to real devices). */
public interface RoundObserver {
  void roundFinished(RoundCosts costs);
}
