package dev.depbloom.model;

import dev.depbloom.sampling.SampledLayer;
import java.util.List;

/**
 * The segment structure of one attention layer over one snapshot: targets are the first {@code
 * targetCount} positions of the level table; samples are the concatenated sampled layers that hang
 * off them. Everything is an index into a table, ready to become int64 tensors.
 *
 * @param targetCount T
 * @param fanout K, the largest fanout among the included sampled layers
 * @param targetIndex {@code [S]} target position of each sample
 * @param slot {@code [S]} {@code target * K + j}: position in the padded {@code [T, K]} grid
 * @param sourcePosition {@code [S]} position of the sampled neighbor in the level table
 * @param edgeRow {@code [S]} row of the sample's edge in {@code distinctEdges}
 * @param distinctEdges {@code [Eu]} edge ids (event indices) of the distinct sampled edges
 * @param sinceEdge {@code [S]} target's query time minus the edge time
 */
public record LayerPlan(
    int targetCount,
    int fanout,
    int[] targetIndex,
    int[] slot,
    int[] sourcePosition,
    int[] edgeRow,
    int[] distinctEdges,
    float[] sinceEdge) {

  public int sampleCount() {
    return targetIndex.length;
  }

  /**
   * Plans the layer whose targets are levels {@code 0..lastLevel} of the level table: it reads the
   * sampled layers {@code 0..lastLevel}.
   *
   * @param layers the snapshot's sampled layers; layer j's roots are level j
   * @param levelStart start position of every level in the level table
   */
  static LayerPlan of(List<SampledLayer> layers, int[] levelStart, int lastLevel) {
    int fanout = 0;
    int samples = 0;
    for (int j = 0; j <= lastLevel; j++) {
      fanout = Math.max(fanout, layers.get(j).fanout());
      samples += layers.get(j).sampleCount();
    }
    int[] targetIndex = new int[samples];
    int[] slot = new int[samples];
    int[] sourcePosition = new int[samples];
    int[] edgeRow = new int[samples];
    float[] since = new float[samples];
    DenseIndex edges = new DenseIndex(samples);
    int k = 0;
    for (int j = 0; j <= lastLevel; j++) {
      SampledLayer layer = layers.get(j);
      int[] offsets = layer.offsets();
      int[] edgeIds = layer.edgeIds();
      float[] deltas = layer.timeDeltas();
      for (int r = 0; r < layer.rootCount(); r++) {
        int target = levelStart[j] + r;
        for (int i = offsets[r]; i < offsets[r + 1]; i++, k++) {
          targetIndex[k] = target;
          slot[k] = target * fanout + (i - offsets[r]);
          sourcePosition[k] = levelStart[j + 1] + i;
          edgeRow[k] = edges.indexOf(edgeIds[i]);
          since[k] = deltas[i];
        }
      }
    }
    return new LayerPlan(
        levelStart[lastLevel + 1],
        fanout,
        targetIndex,
        slot,
        sourcePosition,
        edgeRow,
        edges.keys(),
        since);
  }
}
