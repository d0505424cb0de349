package dev.depbloom.nn;

import org.bytedeco.pytorch.Tensor;

/**
 * One attention layer's inputs in segment form: T targets, each with up to {@code fanout} sampled
 * neighbors; S samples in all. Neighbor representations and edge features are given as tables plus
 * indices, so projections can run once per distinct row.
 *
 * @param targets {@code [T, nodeDim]} target representations, null when nodeDim is 0
 * @param sources {@code [Q, nodeDim]} the table neighbor representations are gathered from, or null
 * @param sourceIndex {@code [S]} int64 row of {@code sources} for each sample
 * @param edgeFeatures {@code [Eu, edgeDim]} features of the distinct sampled edges, or null
 * @param edgeIndex {@code [S]} int64 row of {@code edgeFeatures} for each sample
 * @param sinceEdge {@code [S]} float: target's query time minus the edge's time
 * @param targetIndex {@code [S]} int64 target of each sample
 * @param slot {@code [S]} int64 position {@code target * fanout + j} in the padded grid
 * @param targetCount T
 * @param fanout K
 * @param streamParts where the layer keeps (or finds) its edge and time projections for a second
 *     pass over the same plan, or null to compute them every time
 */
public record AttentionInputs(
    Tensor targets,
    Tensor sources,
    Tensor sourceIndex,
    Tensor edgeFeatures,
    Tensor edgeIndex,
    Tensor sinceEdge,
    Tensor targetIndex,
    Tensor slot,
    long targetCount,
    int fanout,
    StreamParts streamParts) {

  public long sampleCount() {
    return targetIndex.size(0);
  }
}
