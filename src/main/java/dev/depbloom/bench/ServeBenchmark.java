package dev.depbloom.bench;

import dev.depbloom.api.Interaction;
import dev.depbloom.api.LinkQuery;
import dev.depbloom.api.PredictorOptions;
import dev.depbloom.api.TemporalLinkPredictor;
import dev.depbloom.data.EventStream;
import dev.depbloom.serve.PredictionServer;
import dev.depbloom.train.EpochMetrics;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.SavedRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Serving speed of a trained run ({@code bench serve}): latency of {@code score} for 1, 100 and
 * 1,000 pairs and of {@code observe} for batches of 1, 100 and 600 events, through the Java API in
 * this process; the events observed per second while another thread scores single pairs without
 * pause; optionally a single pair's score over HTTP on loopback. The observed events are the run's
 * test events, in order (the stream continues where the run's validation left it); each measurement
 * starts from the same snapshot. Pairs are drawn from the data's sources and destinations, seeded.
 */
public final class ServeBenchmark {
  private final Path run;
  private final int repeats;
  private final boolean http;

  /** What a run of the benchmark measured. */
  public record Result(
      List<ServeRow> scores,
      List<ServeRow> observes,
      ServeRow sustainedReads,
      double sustainedEventsPerSecond,
      ServeRow http,
      double trainingEventsPerSecond,
      double gcSeconds,
      double seconds) {
    /** The measurements as a markdown table. */
    public String markdown() {
      StringBuilder out = new StringBuilder();
      out.append(
          "| operation | size | calls | p50 ms | p99 ms | CPU p50 ms | CPU p99 ms | throughput |\n");
      out.append("|---|---|---|---|---|---|---|---|\n");
      for (ServeRow r : scores) {
        out.append(r.markdown("pairs/s")).append('\n');
      }
      for (ServeRow r : observes) {
        out.append(r.markdown("events/s")).append('\n');
      }
      out.append(sustainedReads.markdown("scores/s")).append('\n');
      out.append(
          String.format(
              Locale.ROOT,
              "| observe (batches of 600) while scoring | 600 | - | - | - | - | - | %,.0f events/s |%n",
              sustainedEventsPerSecond));
      if (http != null) {
        out.append(http.markdown("requests/s")).append('\n');
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| training pass of the run (its metrics) | - | - | - | - | - | - | %,.0f events/s |%n",
              trainingEventsPerSecond));
      out.append(
          String.format(
              Locale.ROOT,
              "%ngarbage collection: %.2f s of the benchmark's %.1f s%n",
              gcSeconds,
              seconds));
      return out.toString();
    }
  }

  /**
   * @param repeats timed calls of a single-pair score; larger calls are timed fewer times
   * @param http also time a single pair's score over HTTP on loopback
   */
  public ServeBenchmark(Path run, int repeats, boolean http) {
    this.run = run;
    this.repeats = repeats;
    this.http = http;
  }

  public Result run() {
    long t0 = System.nanoTime();
    double gc0 = gcSeconds();
    SavedRun saved = SavedRun.open(RunDirectory.open(run), null);
    EventStream events = saved.run().events();
    int first = saved.run().split().valEnd();
    List<Interaction> stream = interactions(events, first, saved.timeOrigin());
    Path snapshot;
    try {
      snapshot = Files.createTempFile("depbloom-bench-serve", ".snapshot");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (TemporalLinkPredictor p = TemporalLinkPredictor.load(run, PredictorOptions.defaults())) {
      p.snapshot(snapshot);
      double later = stream.get(stream.size() - 1).time() + 1;
      SplittableRandom random = new SplittableRandom(7);
      warmUp(p, stream, snapshot, events, random, later);
      List<ServeRow> scores = new ArrayList<>();
      for (int size : new int[] {1, 100, 1000}) { // e.g. 2,000, 200 and 50 calls
        int calls = size == 1 ? repeats : Math.max(20, repeats * 25 / size);
        scores.add(scores(p, events, random, later, size, calls));
      }
      List<ServeRow> observes = new ArrayList<>();
      for (int size : new int[] {1, 100, 600}) {
        p.restore(snapshot);
        observes.add(observes(p, stream, size, "observe"));
      }
      observes.add(journaled(stream, snapshot));
      p.restore(snapshot);
      Sustained s = sustained(p, stream, events, random, later);
      ServeRow overHttp = http ? overHttp(p, events, random, later) : null;
      return new Result(
          scores,
          observes,
          s.reads(),
          s.eventsPerSecond(),
          overHttp,
          trainingEventsPerSecond(),
          gcSeconds() - gc0,
          (System.nanoTime() - t0) / 1e9);
    } finally {
      try {
        Files.deleteIfExists(snapshot);
      } catch (IOException e) {
        // a temporary file left behind
      }
    }
  }

  private static List<Interaction> interactions(EventStream events, int from, double origin) {
    List<Interaction> out = new ArrayList<>();
    float[] row = new float[events.edgeFeatures().dim()];
    for (int e = from; e < events.eventCount(); e++) {
      events.edgeFeatures().copyRow(e, row, 0);
      out.add(
          new Interaction(
              events.nodeIds().originalId(events.sources()[e]),
              events.nodeIds().originalId(events.destinations()[e]),
              events.times()[e] + origin,
              row.length == 0 ? null : row.clone()));
    }
    return out;
  }

  private void warmUp(
      TemporalLinkPredictor p,
      List<Interaction> stream,
      Path snapshot,
      EventStream events,
      SplittableRandom random,
      double later) {
    for (int i = 0; i < 300; i++) {
      p.score(pairs(events, random, later, 1 + i % 50));
    }
    for (int i = 0; i + 100 <= Math.min(2_000, stream.size()); i += 100) {
      p.observe(stream.subList(i, i + 100));
    }
    p.restore(snapshot);
  }

  private static List<LinkQuery> pairs(
      EventStream events, SplittableRandom random, double time, int n) {
    List<LinkQuery> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int e = random.nextInt(events.eventCount());
      int f = random.nextInt(events.eventCount());
      out.add(
          new LinkQuery(
              events.nodeIds().originalId(events.sources()[e]),
              events.nodeIds().originalId(events.destinations()[f]),
              time));
    }
    return out;
  }

  private static ServeRow scores(
      TemporalLinkPredictor p,
      EventStream events,
      SplittableRandom random,
      double later,
      int size,
      int calls) {
    long[] nanos = new long[calls];
    long[] cpu = new long[calls];
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < calls; i++) {
      List<LinkQuery> q = pairs(events, random, later, size);
      long c0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      p.score(q);
      nanos[i] = System.nanoTime() - t0;
      cpu[i] = threads.getCurrentThreadCpuTime() - c0;
    }
    return ServeRow.of("score", size, nanos, cpu);
  }

  private static ServeRow observes(
      TemporalLinkPredictor p, List<Interaction> stream, int size, String operation) {
    int calls = Math.min(size == 1 ? 1_000 : 30_000 / size, stream.size() / size);
    long[] nanos = new long[calls];
    for (int i = 0; i < calls; i++) {
      List<Interaction> batch = stream.subList(i * size, (i + 1) * size);
      long t0 = System.nanoTime();
      p.observe(batch);
      nanos[i] = System.nanoTime() - t0;
    }
    return ServeRow.of(operation, size, nanos);
  }

  /**
   * Batches of 600 observed by a second predictor, loaded from the same snapshot, that journals
   * each batch and forces it to disk before publishing it (as {@code depbloom serve} does).
   */
  private ServeRow journaled(List<Interaction> stream, Path snapshot) {
    Path journal = snapshot.resolveSibling(snapshot.getFileName() + ".journal");
    PredictorOptions options = PredictorOptions.defaults().withSnapshot(snapshot);
    try (TemporalLinkPredictor j = TemporalLinkPredictor.load(run, options.withJournal(journal))) {
      return observes(j, stream, 600, "observe, journal forced to disk per batch");
    } finally {
      try {
        Files.deleteIfExists(journal);
      } catch (IOException e) {
        // a temporary file left behind
      }
    }
  }

  private record Sustained(ServeRow reads, double eventsPerSecond) {}

  /** One thread observes all events in batches of 600 while this one scores single pairs. */
  private static Sustained sustained(
      TemporalLinkPredictor p,
      List<Interaction> stream,
      EventStream events,
      SplittableRandom random,
      double later) {
    AtomicBoolean done = new AtomicBoolean();
    long[] wall = new long[1];
    Thread writer =
        new Thread(
            () -> {
              long t0 = System.nanoTime();
              for (int i = 0; i + 600 <= stream.size(); i += 600) {
                p.observe(stream.subList(i, i + 600));
              }
              wall[0] = System.nanoTime() - t0;
              done.set(true);
            },
            "bench-observer");
    List<Long> reads = new ArrayList<>();
    writer.start();
    while (!done.get()) {
      List<LinkQuery> q = pairs(events, random, later, 1);
      long t0 = System.nanoTime();
      p.score(q);
      reads.add(System.nanoTime() - t0);
    }
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long[] nanos = reads.stream().mapToLong(Long::longValue).toArray();
    int observed = stream.size() / 600 * 600;
    return new Sustained(
        ServeRow.of("score while observing", 1, nanos), observed / (wall[0] / 1e9));
  }

  private ServeRow overHttp(
      TemporalLinkPredictor p, EventStream events, SplittableRandom random, double later) {
    try (PredictionServer server =
        PredictionServer.start(p, new PredictionServer.Options("127.0.0.1", 0, 2, null, 5))) {
      HttpClient client = HttpClient.newHttpClient();
      int calls = Math.max(200, repeats);
      long[] nanos = new long[calls + 100];
      for (int i = 0; i < nanos.length; i++) {
        LinkQuery q = pairs(events, random, later, 1).get(0);
        String body =
            String.format(
                Locale.ROOT,
                "{\"src\": %d, \"dst\": %d, \"time\": %s}",
                q.source(),
                q.destination(),
                q.time());
        HttpRequest r =
            HttpRequest.newBuilder(URI.create(server.uri() + "/score"))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long t0 = System.nanoTime();
        HttpResponse<String> answer = client.send(r, HttpResponse.BodyHandlers.ofString());
        nanos[i] = System.nanoTime() - t0;
        if (answer.statusCode() != 200) {
          throw new IllegalStateException("POST /score answered " + answer.body());
        }
      }
      return ServeRow.of("score over HTTP", 1, Arrays.copyOfRange(nanos, 100, nanos.length));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Seconds all garbage collectors spent so far. */
  private static double gcSeconds() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
            .mapToLong(GarbageCollectorMXBean::getCollectionTime)
            .filter(t -> t > 0)
            .sum()
        / 1e3;
  }

  /** The run's own training speed: its epochs' events over their training seconds. */
  private double trainingEventsPerSecond() {
    List<EpochMetrics> epochs = RunDirectory.open(run).peekState().history();
    long events = epochs.stream().mapToLong(EpochMetrics::trainEvents).sum();
    double seconds = epochs.stream().mapToDouble(EpochMetrics::trainSeconds).sum();
    return events / seconds;
  }
}
