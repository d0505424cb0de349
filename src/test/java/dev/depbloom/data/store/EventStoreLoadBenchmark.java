package dev.depbloom.data.store;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Times loading an event store: {@code java -cp target/classes:target/test-classes:target/lib/*
 * dev.depbloom.data.store.EventStoreLoadBenchmark STORE [REPEATS]}. Prints the time of each load
 * with the event-column checksums, then one with every checksum, then the rate of random feature
 * gathers (batches of 600 rows) when the store has edge features. Not a test: speed is never
 * asserted.
 */
public final class EventStoreLoadBenchmark {
  private EventStoreLoadBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path store = Path.of(args[0]);
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    EventStream events = null;
    for (int r = 0; r < repeats; r++) {
      long start = System.nanoTime();
      events = EventStoreReader.read(store);
      System.out.printf(
          "load %d (event checksums): %.2f s, %,d events, %,d nodes%n",
          r + 1, (System.nanoTime() - start) / 1e9, events.eventCount(), events.nodeCount());
    }
    long start = System.nanoTime();
    events = EventStoreReader.read(store, ChecksumScope.ALL_COLUMNS);
    System.out.printf("load (all checksums): %.2f s%n", (System.nanoTime() - start) / 1e9);
    FeatureMatrix features = events.edgeFeatures();
    if (features.dim() > 0) {
      gather(features, events.eventCount());
    }
  }

  private static void gather(FeatureMatrix features, int rows) {
    int batch = 600;
    int batches = 20_000;
    int[] ids = new int[batch];
    FloatBuffer dst =
        ByteBuffer.allocateDirect(batch * features.dim() * Float.BYTES)
            .order(ByteOrder.nativeOrder())
            .asFloatBuffer();
    SplittableRandom random = new SplittableRandom(1);
    double checksum = 0;
    long start = System.nanoTime();
    for (int b = 0; b < batches; b++) {
      for (int i = 0; i < batch; i++) {
        ids[i] = random.nextInt(rows);
      }
      dst.clear();
      features.gather(ids, batch, dst);
      checksum += dst.get(0);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "gather: %,d random rows of %d floats in %.2f s = %.1f M rows/s (checksum %.3f)%n",
        (long) batch * batches, features.dim(), seconds, batch * batches / seconds / 1e6, checksum);
  }
}
