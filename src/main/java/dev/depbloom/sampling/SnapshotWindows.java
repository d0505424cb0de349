package dev.depbloom.sampling;

/**
 * DySAT's snapshots as TGL defines them (sampling keys {@code history} and {@code duration}): a
 * root queried at time {@code t} is sampled once per snapshot, each snapshot restricted to one
 * window of length {@code d = duration} just before {@code t}.
 *
 * <p>With {@code h = history}, snapshot {@code s} ({@code 0} the oldest, {@code h - 1} the newest,
 * TGL's order) covers the half-open window
 *
 * <pre>
 *   [t - (h - s) * d,  t - (h - 1 - s) * d)
 * </pre>
 *
 * so the windows tile {@code [t - h*d, t)} without overlap and the newest ends at {@code t},
 * excluded. Boundaries are computed exactly as {@link #boundary(double, int)} says. In every layer
 * of a snapshot the roots are queried at the first layer's query time {@code t} (TGL's DySAT runs
 * with {@code prop_time: True}), so every sample of snapshot {@code s}, at any depth, lies in that
 * snapshot's window.
 *
 * <p>Differences from TGL's {@code sampler_core.cpp}, on purpose: TGL starts a window's search at
 * the last event at or before the window start, so one event older than the window can be taken; we
 * never do. TGL compares times with a tolerance of {@code 1e-7} in 32-bit floats; we compare exact
 * doubles.
 *
 * <p>{@link #NONE} ({@code history 1, duration 0}) means no windows: one snapshot of everything
 * strictly before the query time, deeper layers queried at their edge times.
 *
 * @param history number of snapshots {@code h >= 1}
 * @param duration window length {@code d >= 0}, in the stream's time unit; {@code 0} only with
 *     {@code history 1}
 */
public record SnapshotWindows(int history, double duration) {
  /** No snapshots: a single unbounded window ending at the query time. */
  public static final SnapshotWindows NONE = new SnapshotWindows(1, 0);

  public SnapshotWindows {
    if (history < 1) {
      throw new IllegalArgumentException("history must be at least 1, got " + history);
    }
    if (!(duration >= 0) || Double.isInfinite(duration)) {
      throw new IllegalArgumentException("duration must be finite and >= 0, got " + duration);
    }
    if (history > 1 && duration == 0) {
      throw new IllegalArgumentException(
          "history " + history + " needs a positive duration (the snapshot window length)");
    }
  }

  /** True when samples are restricted to windows (duration > 0). */
  public boolean windowed() {
    return duration > 0;
  }

  /**
   * Boundary {@code k} of a root queried at {@code t}: {@code t - k * duration}. Snapshot {@code s}
   * runs from boundary {@code h - s} (included) to boundary {@code h - 1 - s} (excluded).
   */
  public double boundary(double queryTime, int k) {
    return queryTime - k * duration;
  }

  /** First time inside snapshot s's window, or negative infinity without windows. */
  public double windowStart(double queryTime, int snapshot) {
    return windowed() ? boundary(queryTime, history - snapshot) : Double.NEGATIVE_INFINITY;
  }

  /** End of snapshot s's window, excluded: the query time itself for the newest snapshot. */
  public double windowEnd(double queryTime, int snapshot) {
    return boundary(queryTime, history - 1 - snapshot);
  }
}
