package dev.depbloom.model.config;

import dev.depbloom.sampling.SamplingStrategy;
import java.util.Collections;
import java.util.List;

/**
 * TGL's {@code sampling} section: which temporal neighbors each layer sees.
 *
 * @param enabled false for models that read no neighbors (TGL's {@code no_sample: True}, JODIE)
 * @param neighbors fanout per layer, e.g. {@code [10, 10]}; its size is the number of layers
 * @param strategy {@code recent} (last n before the query time) or {@code uniform}
 * @param propTime when true, deeper layers query at the root's time instead of the edge's time;
 *     true exactly when there are snapshots (the only combinations implemented: without snapshots
 *     deeper layers query at their edge's time, with snapshots every layer at the root's time);
 *     omitted, it follows {@code history}
 * @param history number of snapshots (DySAT), 1 otherwise
 * @param duration snapshot length in the data's time unit (history > 1)
 */
public record SamplingConfig(
    boolean enabled,
    List<Integer> neighbors,
    SamplingStrategy strategy,
    boolean propTime,
    int history,
    double duration) {

  public SamplingConfig {
    neighbors = List.copyOf(neighbors);
  }

  public int layers() {
    return enabled ? neighbors.size() : 0;
  }

  static SamplingConfig read(SectionReader r) {
    r.ignore("num_thread");
    boolean noSample = r.bool("no_sample", false);
    int layer = r.nonNegativeInt("layer", noSample ? 0 : 1);
    List<Integer> neighbors = r.positiveInts("neighbor", List.of(10));
    SamplingStrategy strategy =
        r.choice("strategy", SamplingStrategy.class, SamplingStrategy.RECENT);
    int history = r.positiveInt("history", 1);
    boolean propTime = r.bool("prop_time", history > 1);
    double duration = r.number("duration", 0, 0, Double.MAX_VALUE);
    r.finish();
    if (noSample || layer == 0) {
      return new SamplingConfig(false, List.of(), strategy, propTime, history, duration);
    }
    if (neighbors.size() == 1 && layer > 1) {
      neighbors = Collections.nCopies(layer, neighbors.get(0));
    }
    if (neighbors.size() != layer) {
      throw r.error("neighbor", "has " + neighbors.size() + " fanouts but layer is " + layer);
    }
    if (history > 1 && duration <= 0) {
      throw r.error("duration", "must be positive when history > 1 (snapshot length)");
    }
    return new SamplingConfig(true, neighbors, strategy, propTime, history, duration);
  }
}
