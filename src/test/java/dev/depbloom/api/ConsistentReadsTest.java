package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.data.EventStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers see whole batches: scores computed while batches are being observed equal, bit for bit,
 * the scores of the version they report, computed alone. The publish hook holds every batch for 25
 * ms after its memory write and before its index entries and version, so a reader let in there
 * would score new memory under the old version; with the guard none is let in, and without it (the
 * second test) readers are caught doing so.
 */
@Tag(Kernels.TRAINS)
class ConsistentReadsTest {
  @TempDir static Path dir;
  private static Path run;
  private static List<List<Interaction>> batches;
  private static List<LinkQuery> queries;
  private static Map<Long, float[]> expected; // version -> scores of the queries

  @BeforeAll
  static void trainAndScoreEveryVersionAlone() {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    run = ServedRuns.train(data, "tgn", dir.resolve("run"));
    EventStream stream = ServedRuns.load(data);
    batches = new ArrayList<>();
    for (int e = 510; e < 600; e += 10) {
      batches.add(ServedRuns.interactions(stream, e, e + 10));
    }
    double after = stream.times()[599] + 1;
    queries = new ArrayList<>();
    for (Interaction e : ServedRuns.interactions(stream, 510, 600)) {
      queries.add(new LinkQuery(e.source(), e.destination(), after));
    }
    expected = new HashMap<>();
    try (TemporalLinkPredictor alone = TemporalLinkPredictor.load(run)) {
      expected.put(alone.version(), alone.score(queries).scores());
      for (List<Interaction> b : batches) {
        alone.observe(b);
        expected.put(alone.version(), alone.score(queries).scores());
      }
    }
    assertEquals(batches.size() + 1, expected.size());
  }

  /** Readers scoring while the batches are observed: how many reads, and how many were torn. */
  private record Reads(int total, int torn, int versionsSeen) {}

  private static Reads readWhileObserving(VersionGuard guard) throws InterruptedException {
    PublishHook slowPublish =
        () -> {
          try {
            Thread.sleep(25);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger total = new AtomicInteger();
    AtomicInteger torn = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (TemporalLinkPredictor p =
        TemporalLinkPredictor.load(run, PredictorOptions.defaults(), guard, slowPublish)) {
      Thread reader =
          new Thread(
              () -> {
                try {
                  while (!done.get()) {
                    ScoredLinks s = p.score(queries);
                    total.incrementAndGet();
                    seen.add(s.version());
                    if (!Arrays.equals(expected.get(s.version()), s.scores())) {
                      torn.incrementAndGet();
                    }
                  }
                } catch (Throwable t) {
                  failure.set(t);
                }
              });
      reader.start();
      for (List<Interaction> b : batches) {
        p.observe(b);
        Thread.sleep(5); // room for reads between batches too
      }
      done.set(true);
      reader.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("the reader failed", failure.get());
    }
    return new Reads(total.get(), torn.get(), seen.size());
  }

  @Test
  void aReaderNeverSeesPartOfABatch() throws InterruptedException {
    Reads r = readWhileObserving(VersionGuard.readWriteLock());
    assertEquals(0, r.torn(), r.torn() + " of " + r.total() + " reads saw part of a batch");
    assertTrue(r.versionsSeen() >= 3, "reads saw only " + r.versionsSeen() + " versions");
  }

  /** The check above can fail: without the guard, readers score half-published batches. */
  @Test
  void withoutTheGuardReadersSeeHalfPublishedBatches() throws InterruptedException {
    VersionGuard none =
        new VersionGuard() {
          @Override
          public <T> T read(Supplier<T> read) {
            return read.get();
          }

          @Override
          public void publish(Runnable change) {
            change.run();
          }
        };
    Reads r = readWhileObserving(none);
    assertTrue(r.torn() > 0, "no torn read in " + r.total() + " reads without the guard");
  }
}
