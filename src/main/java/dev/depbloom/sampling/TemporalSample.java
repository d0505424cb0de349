package dev.depbloom.sampling;

import java.util.List;

/**
 * The sampled temporal neighborhood of a set of roots: per snapshot, a list of layers. Layer 0's
 * roots are the query roots; layer {@code l + 1}'s roots are layer l's samples, queried at their
 * edge times. Samplers without snapshots return one snapshot.
 */
public record TemporalSample(List<List<SampledLayer>> snapshots) {
  public TemporalSample {
    snapshots = List.copyOf(snapshots.stream().map(List::copyOf).toList());
  }

  public static TemporalSample ofLayers(List<SampledLayer> layers) {
    return new TemporalSample(List.of(layers));
  }

  /** The layers of the only (or first) snapshot. */
  public List<SampledLayer> layers() {
    return snapshots.get(0);
  }

  public int snapshotCount() {
    return snapshots.size();
  }

  /** Total number of sampled neighbors over all snapshots and layers. */
  public long sampleCount() {
    long n = 0;
    for (List<SampledLayer> layers : snapshots) {
      for (SampledLayer layer : layers) {
        n += layer.sampleCount();
      }
    }
    return n;
  }
}
