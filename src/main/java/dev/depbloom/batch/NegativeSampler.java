package dev.depbloom.batch;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import java.util.SplittableRandom;

/**
 * Draws negative destinations uniformly from a pool: all nodes, or the destination set of a
 * bipartite graph (TGL and DistTGL). Draws depend only on the seed and the stream key.
 */
public final class NegativeSampler {
  private static final long COMPONENT = RandomStreams.key("negatives");
  private final int[] pool; // candidate node ids
  private final long seed;

  public NegativeSampler(int[] pool, long seed) {
    if (pool.length == 0) {
      throw new IllegalArgumentException("empty negative pool");
    }
    this.pool = pool.clone();
    this.seed = seed;
  }

  /** Destinations for bipartite graphs, all nodes otherwise. */
  public static NegativeSampler forStream(EventStream events, boolean fromDestinations, long seed) {
    int[] pool;
    if (fromDestinations) {
      pool = events.destinationNodes();
    } else {
      pool = new int[events.nodeCount()];
      java.util.Arrays.setAll(pool, i -> i);
    }
    return new NegativeSampler(pool, seed);
  }

  /** {@code count} uniform draws, with replacement, from the stream named by {@code keys}. */
  public int[] sample(int count, long... keys) {
    long[] path = new long[keys.length + 1];
    path[0] = COMPONENT;
    System.arraycopy(keys, 0, path, 1, keys.length);
    SplittableRandom random = RandomStreams.stream(seed, path);
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = pool[random.nextInt(pool.length)];
    }
    return out;
  }

  public int poolSize() {
    return pool.length;
  }
}
