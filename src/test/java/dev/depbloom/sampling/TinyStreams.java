package dev.depbloom.sampling;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Small event streams for the sampling tests: one drawn by hand, and seeded random ones. */
final class TinyStreams {
  private TinyStreams() {}

  /**
   * Eight events on four nodes, with equal times (events 2 and 3 at 3; 5 and 6 at 5) and a
   * self-loop (event 4 on node 2):
   *
   * <pre>
   *   event  0  1  2  3  4  5  6  7
   *   src    0  0  1  0  2  0  3  1
   *   dst    1  2  2  3  2  1  0  3
   *   time   1  2  3  3  4  5  5  6
   * </pre>
   *
   * Rows, oldest first, as (event: neighbor @ time): node 0: 0:1@1 1:2@2 3:3@3 5:1@5 6:3@5; node 1:
   * 0:0@1 2:2@3 5:0@5 7:3@6; node 2: 1:0@2 2:1@3 4:2@4 4:2@4; node 3: 3:0@3 6:0@5 7:1@6.
   */
  static EventStream handBuilt() {
    return stream(
        4,
        new int[] {0, 0, 1, 0, 2, 0, 3, 1},
        new int[] {1, 2, 2, 3, 2, 1, 0, 3},
        new double[] {1, 2, 3, 3, 4, 5, 5, 6});
  }

  /**
   * {@code events} random events on {@code nodes} nodes at integer times {@code 0..times-1}
   * (sorted, so many ties when {@code times} is small), about one in twenty a self-loop.
   */
  static EventStream random(long seed, int nodes, int events, int times) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] src = new int[events];
    int[] dst = new int[events];
    double[] time = new double[events];
    for (int i = 0; i < events; i++) {
      src[i] = random.nextInt(nodes);
      dst[i] = random.nextInt(20) == 0 ? src[i] : random.nextInt(nodes);
      time[i] = random.nextInt(times);
    }
    Arrays.sort(time);
    return stream(nodes, src, dst, time);
  }

  static EventStream stream(int nodes, int[] src, int[] dst, double[] time) {
    return new EventStream(
        src,
        dst,
        time,
        null,
        null,
        null,
        NodeIdMap.identity(nodes),
        false,
        new IngestReport("test", DataFormat.CSV, 0, 0));
  }
}
