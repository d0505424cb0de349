package dev.depbloom.data.load;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.Split;
import java.util.Arrays;

/**
 * What {@code depbloom inspect} reports about an event stream. Degrees count event endpoints (a
 * self-loop counts twice); the median and 99th percentile are nearest-rank values of the sorted
 * node degrees. The split is {@link Split#of}; an event "touches a new node" when one of its
 * endpoints is not an endpoint of any training event.
 *
 * @param repeatedTimeShare share of events whose time equals another event's time
 * @param splitSource {@code ext_roll} when the file carries its split, else {@code 70/15/15}
 */
public record StreamStatistics(
    String source,
    String format,
    int events,
    int nodes,
    boolean bipartite,
    int edgeFeatureDim,
    int nodeFeatureDim,
    double timeMin,
    double timeMax,
    long outOfOrder,
    long rowsMoved,
    double repeatedTimeShare,
    double degreeMean,
    int degreeMedian,
    int degreeP99,
    int degreeMax,
    String splitSource,
    int trainEvents,
    int valEvents,
    int testEvents,
    int valEventsWithNewNodes,
    int testEventsWithNewNodes) {

  /** The statistics of {@code stream}, which must hold at least one event. */
  public static StreamStatistics of(EventStream stream) {
    int e = stream.eventCount();
    if (e == 0) {
      throw new IllegalArgumentException("statistics need at least one event");
    }
    double[] time = stream.times();
    int[] degrees = sortedDegrees(stream);
    Split split = Split.of(stream);
    boolean[] seen = split.seenInTraining(stream);
    IngestReport ingest = stream.ingest();
    return new StreamStatistics(
        ingest.source(),
        EventLoader.formatName(ingest.format()),
        e,
        stream.nodeCount(),
        stream.bipartite(),
        stream.edgeFeatures().dim(),
        stream.nodeFeatures().dim(),
        time[0],
        time[e - 1],
        ingest.outOfOrder(),
        ingest.rowsMoved(),
        (double) repeatedTimeEvents(time) / e,
        2.0 * e / stream.nodeCount(),
        nearestRank(degrees, 50),
        nearestRank(degrees, 99),
        degrees[degrees.length - 1],
        stream.splitLabels() != null ? "ext_roll" : "70/15/15",
        split.trainCount(),
        split.valCount(),
        split.testCount(),
        eventsWithNewNodes(stream, seen, split.trainEnd(), split.valEnd()),
        eventsWithNewNodes(stream, seen, split.valEnd(), e));
  }

  /** Events whose time equals a neighbour's in the sorted stream, i.e. another event's time. */
  static int repeatedTimeEvents(double[] time) {
    int count = 0;
    for (int i = 0; i < time.length; i++) {
      boolean left = i > 0 && time[i - 1] == time[i];
      boolean right = i + 1 < time.length && time[i + 1] == time[i];
      count += left || right ? 1 : 0;
    }
    return count;
  }

  private static int[] sortedDegrees(EventStream stream) {
    int[] degree = new int[stream.nodeCount()];
    for (int v : stream.sources()) {
      degree[v]++;
    }
    for (int v : stream.destinations()) {
      degree[v]++;
    }
    Arrays.sort(degree);
    return degree;
  }

  /** The smallest value with at least {@code percent}% of the values at or below it. */
  static int nearestRank(int[] sorted, int percent) {
    long rank = ((long) percent * sorted.length + 99) / 100; // ceil, in integers
    return sorted[(int) Math.max(0, rank - 1)];
  }

  private static int eventsWithNewNodes(EventStream stream, boolean[] seen, int from, int to) {
    int[] src = stream.sources();
    int[] dst = stream.destinations();
    int count = 0;
    for (int i = from; i < to; i++) {
      count += !seen[src[i]] || !seen[dst[i]] ? 1 : 0;
    }
    return count;
  }
}
