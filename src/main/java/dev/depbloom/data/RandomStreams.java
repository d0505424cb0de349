package dev.depbloom.data;

import java.util.SplittableRandom;

/**
 * Independent random streams split from one run seed by a path of keys (component, epoch, batch,
 * root...). A stream depends only on its seed and keys, never on thread count or call order, so
 * every sampled quantity is reproducible and a resumed run draws what an uninterrupted one would.
 */
public final class RandomStreams {
  private RandomStreams() {}

  /** SplitMix64's finaliser: a bijective mix of 64 bits. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** A 64-bit seed derived from {@code seed} and the key path. */
  public static long derive(long seed, long... keys) {
    long h = mix(seed + 0x9e3779b97f4a7c15L);
    for (long k : keys) {
      h = extend(h, k);
    }
    return h;
  }

  /**
   * One more key on a derived seed: {@code extend(derive(seed, a, b), c) == derive(seed, a, b, c)}.
   * Lets a hot loop derive one stream per item (e.g. per root) without allocating a key path.
   */
  public static long extend(long derived, long key) {
    return mix(derived ^ mix(key + 0x9e3779b97f4a7c15L));
  }

  /** A generator for the stream named by {@code keys} under {@code seed}. */
  public static SplittableRandom stream(long seed, long... keys) {
    return new SplittableRandom(derive(seed, keys));
  }

  /** Stable key for a component name, so streams of different components never coincide. */
  public static long key(String component) {
    long h = 1125899906842597L;
    for (int i = 0; i < component.length(); i++) {
      h = 31 * h + component.charAt(i);
    }
    return h;
  }
}
