package dev.depbloom;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import java.util.SplittableRandom;

/** Tiny event streams for tests: hand-built ones with exact values, and seeded random ones. */
public final class TinyStreams {
  private TinyStreams() {}

  /**
   * A stream from columns; edge features {@code [E, edgeDim]} filled with {@code 0.1 * (i + j)}.
   */
  public static EventStream of(int nodes, int[] src, int[] dst, double[] time, int edgeDim) {
    float[] f = new float[src.length * edgeDim];
    for (int i = 0; i < src.length; i++) {
      for (int j = 0; j < edgeDim; j++) {
        f[i * edgeDim + j] = 0.1f * (i + j);
      }
    }
    return new EventStream(
        src,
        dst,
        time,
        null,
        new HeapFeatureMatrix(f, src.length, edgeDim),
        null,
        NodeIdMap.identity(nodes),
        !EventStream.sharesNodes(src, dst, nodes),
        new IngestReport("test", DataFormat.CSV, 0, 0));
  }

  /**
   * A seeded random stream: {@code events} events over {@code nodes} nodes with skewed activity,
   * repeated partners and integer times (so that equal times occur).
   */
  public static EventStream random(int nodes, int events, int edgeDim, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int[] src = new int[events];
    int[] dst = new int[events];
    double[] time = new double[events];
    double t = 0;
    for (int i = 0; i < events; i++) {
      src[i] = (int) (nodes * Math.pow(r.nextDouble(), 2));
      dst[i] = i > 0 && r.nextDouble() < 0.3 ? src[i - 1] : r.nextInt(nodes);
      if (dst[i] == src[i]) {
        dst[i] = (src[i] + 1) % nodes;
      }
      t += r.nextInt(3);
      time[i] = t;
    }
    return of(nodes, src, dst, time, edgeDim);
  }
}
