package dev.depbloom.data.load;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Load times of data files, measured after warm-up (not a unit test: speed is measured here, never
 * asserted). Run: {@code java -cp target/test-classes:target/classes:target/lib/*
 * dev.depbloom.data.load.EventLoaderBenchmark FILE... } with {@code -Drounds=N} (default 10).
 */
public final class EventLoaderBenchmark {
  private EventLoaderBenchmark() {}

  public static void main(String[] args) {
    int rounds = Integer.getInteger("rounds", 10);
    for (String arg : args) {
      Path file = Path.of(arg);
      for (int i = 0; i < Math.max(1, rounds / 2); i++) {
        EventLoader.load(file, LoadOptions.defaults()); // warm-up
      }
      long[] nanos = new long[rounds];
      int events = 0;
      for (int i = 0; i < rounds; i++) {
        long start = System.nanoTime();
        events = EventLoader.load(file, LoadOptions.defaults()).eventCount();
        nanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(nanos);
      System.out.printf(
          "%-40s %,12d events  median %8.1f ms  min %8.1f ms  (%d rounds)%n",
          file.getFileName(), events, nanos[rounds / 2] / 1e6, nanos[0] / 1e6, rounds);
    }
  }
}
