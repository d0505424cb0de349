package dev.depbloom.batch;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.RandomStreams;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws negative destinations uniformly from a pool: all nodes, or the destination set of a
 * bipartite graph (TGL and DistTGL). Draws depend only on the seed and the stream key.
 *
 * <p>Two conventions: {@link #sample} draws from the whole pool, so a training negative may equal
 * its event's destination (TGL's training negatives); {@link #sampleExcludingDestinations} never
 * draws an event's own destination, so a ranking (MRR) never ties the positive with itself (TGB's
 * evaluation negatives).
 */
public final class NegativeSampler {
  private static final long COMPONENT = RandomStreams.key("negatives");
  private final int[] pool; // candidate node ids
  private final long seed;
  private final int soleCandidate; // the node of a pool holding one distinct node, else -1

  public NegativeSampler(int[] pool, long seed) {
    if (pool.length == 0) {
      throw new IllegalArgumentException("empty negative pool");
    }
    this.pool = pool.clone();
    this.seed = seed;
    this.soleCandidate = Arrays.stream(pool).distinct().count() == 1 ? pool[0] : -1;
  }

  /** Destinations for bipartite graphs, all nodes otherwise. */
  public static NegativeSampler forStream(EventStream events, boolean fromDestinations, long seed) {
    int[] pool;
    if (fromDestinations) {
      pool = events.destinationNodes();
    } else {
      pool = new int[events.nodeCount()];
      Arrays.setAll(pool, i -> i);
    }
    return new NegativeSampler(pool, seed);
  }

  /** {@code count} uniform draws, with replacement, from the stream named by {@code keys}. */
  public int[] sample(int count, long... keys) {
    SplittableRandom random = stream(keys);
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = pool[random.nextInt(pool.length)];
    }
    return out;
  }

  /**
   * {@code perEvent} negatives for each of {@code B = destinations.length} events, none equal to
   * its event's true destination: uniform with replacement over the pool's other entries (by
   * redrawing a hit), from the stream named by {@code keys} as in {@link #sample}. Negative-major,
   * as {@link Batch#of} expects: {@code out[j * B + i]} is negative j of event i.
   *
   * @param destinations the true destination of each event of the batch, {@code [B]}
   * @throws IllegalArgumentException if the pool holds no node but some event's destination
   */
  public int[] sampleExcludingDestinations(int[] destinations, int perEvent, long... keys) {
    int b = destinations.length;
    for (int i = 0; i < b; i++) {
      if (destinations[i] == soleCandidate) {
        throw new IllegalArgumentException(
            "no negative can be drawn for event "
                + i
                + " of the batch: the negative pool holds only node "
                + soleCandidate
                + ", its true destination");
      }
    }
    SplittableRandom random = stream(keys);
    int[] out = new int[perEvent * b];
    for (int o = 0; o < out.length; o++) {
      int destination = destinations[o % b];
      int candidate;
      do {
        candidate = pool[random.nextInt(pool.length)];
      } while (candidate == destination);
      out[o] = candidate;
    }
    return out;
  }

  public int poolSize() {
    return pool.length;
  }

  private SplittableRandom stream(long... keys) {
    long[] path = new long[keys.length + 1];
    path[0] = COMPONENT;
    System.arraycopy(keys, 0, path, 1, keys.length);
    return RandomStreams.stream(seed, path);
  }
}
