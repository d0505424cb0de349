package dev.depbloom.api;

import java.util.Locale;

/**
 * What a served stream admits, checked before anything is applied (docs/serving.md, "Behaviours:
 * ids, time, limits").
 *
 * <p><b>Time.</b> An event's or a query's time must be finite, not before the newest observed event
 * (the memory has seen it), and at most the time horizon beyond it (before any event: beyond the
 * data's first event). The horizon defaults to the training span ({@link LoadedRun#trainingSpan}).
 * Without the upper bound one event at {@code 1e308} (or in milliseconds where the data counts
 * seconds) would move the newest time so far that every later event is late and every time encoding
 * overflows: the server would be poisoned for good.
 *
 * <p><b>Ids.</b> Node ids lie in {@code [0, idBound)} ({@link LoadedRun#defaultIdBound}); others
 * are refused, in events and in queries alike, before an event could take one of the new-node rows.
 */
final class AdmissionRules {
  private AdmissionRules() {}

  /**
   * The run time of data time {@code time} of {@code item} {@code index}, checked against {@code
   * newest} (run time of the newest observed event, negative infinity before any; in a call of
   * several events, those before it count as observed); {@code late} says why an earlier time is
   * refused.
   */
  static double runTime(
      LoadedRun run, double newest, double time, String item, int index, String late) {
    if (!Double.isFinite(time)) {
      throw new RejectedInputException(
          item, index, "time", "expected a finite number, got " + time);
    }
    double origin = run.timeOrigin();
    double t = time - origin;
    if (t < newest) {
      throw new RejectedInputException(
          item,
          index,
          "time",
          time + " is before the newest observed event (" + (newest + origin) + "); " + late);
    }
    double reference = Double.isInfinite(newest) ? 0 : newest;
    if (t - reference > run.timeHorizon) {
      throw new RejectedInputException(
          item,
          index,
          "time",
          String.format(
              Locale.ROOT,
              "%s is more than the time horizon (%s) after the %s (%s): a time in another unit,"
                  + " or a placeholder? (the horizon is the training span unless --time-horizon"
                  + " sets it)",
              time,
              run.timeHorizon,
              Double.isInfinite(newest) ? "data's first event" : "newest observed event",
              reference + origin));
    }
    return t;
  }

  /** Refuses {@code id} of {@code item} {@code index} outside {@code [0, idBound)}. */
  static void checkId(LoadedRun run, long id, String item, int index, String field) {
    if (id < 0 || id >= run.idBound) {
      throw new RejectedInputException(
          item,
          index,
          field,
          String.format(
              Locale.ROOT,
              "node %d is outside the id space [0, %d) (--id-bound); it is not added",
              id,
              run.idBound));
    }
  }
}
