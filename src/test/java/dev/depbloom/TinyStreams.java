package dev.depbloom;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;
import dev.depbloom.data.Split;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The tiny data sets of all tests: hand-built streams with exact values, seeded random ones, and a
 * small-dimension training run over them.
 */
public final class TinyStreams {
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
  public static EventStream handBuilt() {
    return of(
        4,
        new int[] {0, 0, 1, 0, 2, 0, 3, 1},
        new int[] {1, 2, 2, 3, 2, 1, 0, 3},
        new double[] {1, 2, 3, 3, 4, 5, 5, 6},
        0);
  }

  /**
   * {@code events} uniform random events on {@code nodes} nodes at integer times {@code 0..times-1}
   * (sorted, so many ties when {@code times} is small), about one in twenty a self-loop.
   */
  public static EventStream randomWithTies(long seed, int nodes, int events, int times) {
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
    return of(nodes, src, dst, time, 0);
  }

  /** A training run of a shipped model with small dimensions and batches of 100, one thread. */
  public static TrainingRun tinyRun(EventStream events, String model, long seed) {
    return tinyRun(events, model, seed, Map.of());
  }

  /** As {@link #tinyRun(EventStream, String, long)}, with further configuration overrides. */
  public static TrainingRun tinyRun(
      EventStream events, String model, long seed, Map<String, String> overrides) {
    Map<String, String> o = new java.util.HashMap<>();
    o.put("memory.dim_out", "8");
    o.put("memory.dim_time", "4");
    o.put("gnn.dim_out", "8");
    o.put("gnn.dim_time", model.equals("dysat") ? "0" : "4");
    o.put("train.batch_size", "100");
    o.putAll(overrides);
    return new TrainingRun(
        events, "tiny", Split.of(events), RunConfig.zoo(model, o), seed, new ThreadBudget(1, 1), 1);
  }

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

  /** Writes a stream as a header CSV {@code src,dst,time} (integer times) to {@code file}. */
  public static java.nio.file.Path writeCsv(EventStream s, java.nio.file.Path file) {
    StringBuilder csv = new StringBuilder("src,dst,time\n");
    for (int i = 0; i < s.eventCount(); i++) {
      csv.append(s.sources()[i]).append(',').append(s.destinations()[i]).append(',');
      csv.append((long) s.times()[i]).append('\n');
    }
    try {
      return java.nio.file.Files.writeString(file, csv);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
