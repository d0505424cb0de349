package dev.depbloom.data;

import java.util.Objects;

/**
 * What a model reads of a stream besides its structure: edge features by edge id (the event's
 * stream index) and node features by node id. A fixed stream's ({@link EventStream#features()}) or
 * one that grows while it is served.
 *
 * @param edgeFeatures {@code [edges, edgeFeatureDim]}
 * @param nodeFeatures {@code [nodes, nodeFeatureDim]}
 */
public record StreamFeatures(FeatureMatrix edgeFeatures, FeatureMatrix nodeFeatures) {
  public StreamFeatures {
    Objects.requireNonNull(edgeFeatures);
    Objects.requireNonNull(nodeFeatures);
  }
}
