package dev.depbloom.sampling;

import dev.depbloom.data.EventStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The definition of a root's eligible events, by a scan over the whole event list (no CSR): the
 * events incident to node v with a time in {@code [windowStart, windowEnd)}, in event order, a
 * self-loop listed twice. As the reference's selftest does it.
 */
final class BruteForceNeighborhood {
  /** One incident event as seen from the root. */
  record Entry(int edgeId, int neighbor, double time) {}

  private final EventStream events;

  BruteForceNeighborhood(EventStream events) {
    this.events = events;
  }

  List<Entry> eligible(int v, double windowStart, double windowEnd) {
    List<Entry> out = new ArrayList<>();
    for (int e = 0; e < events.eventCount(); e++) {
      double t = events.times()[e];
      if (t < windowStart || t >= windowEnd) {
        continue;
      }
      if (events.sources()[e] == v) {
        out.add(new Entry(e, events.destinations()[e], t));
      }
      if (events.destinations()[e] == v) {
        out.add(new Entry(e, events.sources()[e], t));
      }
    }
    return out;
  }

  /** The last {@code n} eligible events, oldest first: what {@code recent} must return. */
  List<Entry> recent(int v, double windowStart, double windowEnd, int n) {
    List<Entry> all = eligible(v, windowStart, windowEnd);
    return all.subList(Math.max(0, all.size() - n), all.size());
  }
}
