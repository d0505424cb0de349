package dev.depbloom.observe;

import java.util.List;

/** Receives the progress of passes over events (progress bars are listeners). */
public interface PhaseListener {
  /** A pass over {@code events} events begins. */
  default void phaseStarted(Phase phase, int epoch, long events) {}

  /** A batch of a phase finished; {@code loss} is NaN outside training. */
  default void batchFinished(Phase phase, long eventsDone, double loss) {}

  default void phaseFinished(Phase phase) {}

  /** A listener that tells each of {@code listeners} in turn, as the list holds them then. */
  static PhaseListener all(List<? extends PhaseListener> listeners) {
    return new PhaseListener() {
      @Override
      public void phaseStarted(Phase phase, int epoch, long events) {
        listeners.forEach(l -> l.phaseStarted(phase, epoch, events));
      }

      @Override
      public void batchFinished(Phase phase, long eventsDone, double loss) {
        listeners.forEach(l -> l.batchFinished(phase, eventsDone, loss));
      }

      @Override
      public void phaseFinished(Phase phase) {
        listeners.forEach(l -> l.phaseFinished(phase));
      }
    };
  }
}
