package dev.depbloom.data.store;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.NodeIdMap;

/** Hand-built streams with every column the store holds, for exact round-trip checks. */
final class TinyEventStreams {
  private TinyEventStreams() {}

  /**
   * Three events of a bipartite graph, users 7 and 42, items 1000 and 5e9 (original ids), with
   * split labels 0/1/2, 2-dim edge features and 3-dim node features.
   */
  static EventStream full() {
    int[] src = {0, 0, 1};
    int[] dst = {2, 3, 3};
    double[] time = {1.5, 1.5, 3.25};
    byte[] split = {0, 1, 2};
    HeapFeatureMatrix edge =
        new HeapFeatureMatrix(new float[] {0.5f, -1f, 2f, 3f, -0f, 1e-8f}, 3, 2);
    float[] nodeValues = new float[12];
    for (int i = 0; i < nodeValues.length; i++) {
      nodeValues[i] = i * 0.25f - 1f;
    }
    HeapFeatureMatrix node = new HeapFeatureMatrix(nodeValues, 4, 3);
    NodeIdMap ids = NodeIdMap.ofDistinct(new long[] {7, 42, 1000, 5_000_000_000L});
    IngestReport ingest = new IngestReport("/data/tiny.csv", DataFormat.JODIE, 2, 5);
    return new EventStream(src, dst, time, split, edge, node, ids, true, ingest);
  }

  /** Four events over nodes 0..2, with none of the optional columns and no source format. */
  static EventStream bare() {
    return new EventStream(
        new int[] {0, 1, 2, 0},
        new int[] {1, 2, 0, 2},
        new double[] {0, 0, 10, 11},
        null,
        null,
        null,
        NodeIdMap.identity(3),
        false,
        new IngestReport("synthetic(test)", null, 0, 0));
  }
}
