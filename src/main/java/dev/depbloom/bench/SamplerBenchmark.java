package dev.depbloom.bench;

import dev.depbloom.batch.Batch;
import dev.depbloom.batch.BatchPlan;
import dev.depbloom.batch.NegativeSampler;
import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.IngestReport;
import dev.depbloom.data.InputException;
import dev.depbloom.data.NodeIdMap;
import dev.depbloom.data.Split;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.NeighborSamplerFactory;
import dev.depbloom.sampling.SamplerConfig;
import dev.depbloom.sampling.SamplingStrategy;
import dev.depbloom.sampling.TemporalCsr;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Neighbor sampling throughput as training sees it: the training events (first 70%) in batches of
 * 600 in time order, roots {@code [src | dst | neg]} with negatives uniform over the destination
 * set, the CSR over all events (both directions). Two workloads: TGN's 1-layer {@code recent}
 * fanout 10, and TGAT's 2-layer {@code uniform} {@code [10, 10]}. A pass resets the sampler and
 * samples every batch once; warm-up passes are not measured. Throughput is sampled neighbors (all
 * layers) per second of sampling; batch roots are built before timing starts.
 */
public final class SamplerBenchmark {
  public static final int BATCH_SIZE = 600;
  public static final List<Integer> RECENT_FANOUTS = List.of(10);
  public static final List<Integer> UNIFORM_FANOUTS = List.of(10, 10);

  /**
   * Throughput of one workload over the measured passes.
   *
   * @param neighborsPerPass sampled neighbors of one pass, all layers (the same every pass)
   */
  public record Measurement(
      String strategy,
      List<Integer> fanouts,
      int threads,
      int passes,
      long neighborsPerPass,
      long medianPerSecond,
      long minPerSecond,
      long maxPerSecond) {}

  private final TemporalCsr csr;
  private final List<Batch> batches; // training batches in time order
  private final long seed;

  /** The benchmark on an event file read by {@link #readJodieCsv}. */
  public static SamplerBenchmark onFile(Path file, long seed) {
    return new SamplerBenchmark(readJodieCsv(file), seed);
  }

  public SamplerBenchmark(EventStream events, long seed) {
    this.csr = TemporalCsr.build(events, true);
    this.seed = seed;
    this.batches = trainingBatches(events, seed);
  }

  private static List<Batch> trainingBatches(EventStream events, long seed) {
    int trainEnd = Split.of(events).trainEnd();
    NegativeSampler negatives = NegativeSampler.forStream(events, true, seed);
    List<Batch> out = new ArrayList<>();
    for (int[] b : BatchPlan.bounds(0, trainEnd, BATCH_SIZE)) {
      int index = out.size();
      out.add(Batch.of(events, index, b[0], b[1], negatives.sample(b[1] - b[0], index)));
    }
    return out;
  }

  public int batchCount() {
    return batches.size();
  }

  public int trainEvents() {
    return batches.isEmpty() ? 0 : batches.get(batches.size() - 1).end();
  }

  /** TGN's workload: 1 layer, 10 most recent. */
  public Measurement measureRecent(int threads, int warmupPasses, int passes) {
    return measure(
        SamplerConfig.of(SamplingStrategy.RECENT, RECENT_FANOUTS).withThreads(threads),
        warmupPasses,
        passes);
  }

  /** TGAT's workload: 2 layers, 10 uniform draws each. */
  public Measurement measureUniform(int threads, int warmupPasses, int passes) {
    return measure(
        SamplerConfig.of(SamplingStrategy.UNIFORM, UNIFORM_FANOUTS)
            .withThreads(threads)
            .withSeed(seed),
        warmupPasses,
        passes);
  }

  /** Runs {@code warmupPasses} unmeasured and {@code passes} measured passes of the config. */
  public Measurement measure(SamplerConfig config, int warmupPasses, int passes) {
    if (passes < 1 || warmupPasses < 0) {
      throw new IllegalArgumentException("need at least one measured pass and no negative warm-up");
    }
    double[] perSecond = new double[passes];
    long neighbors = 0;
    try (NeighborSampler sampler = NeighborSamplerFactory.create(config, csr)) {
      for (int pass = -warmupPasses; pass < passes; pass++) {
        sampler.reset();
        long start = System.nanoTime();
        neighbors = samplePass(sampler);
        long nanos = System.nanoTime() - start;
        if (pass >= 0) {
          perSecond[pass] = neighbors * 1e9 / nanos;
        }
      }
    }
    Arrays.sort(perSecond);
    double median =
        passes % 2 == 1
            ? perSecond[passes / 2]
            : (perSecond[passes / 2 - 1] + perSecond[passes / 2]) / 2;
    return new Measurement(
        config.strategy().configName(),
        config.fanouts(),
        config.threads(),
        passes,
        neighbors,
        Math.round(median),
        Math.round(perSecond[0]),
        Math.round(perSecond[passes - 1]));
  }

  private long samplePass(NeighborSampler sampler) {
    long neighbors = 0;
    for (Batch batch : batches) {
      neighbors += sampler.sample(batch.roots(), batch.rootTimes(), batch.index()).sampleCount();
    }
    return neighbors;
  }

  // ---------------------------------------------------------------------------------------------
  // TEMPORARY, REPLACE AT MERGE: a minimal reader for /work/shared/data/wikipedia.csv.gz until the
  // project's loader (other branch) and the embedded data set land. Replace readJodieCsv (used only
  // by onFile) and defaultDataPath with the loader; the bench command's --data then defaults to the
  // embedded set.
  // ---------------------------------------------------------------------------------------------

  /**
   * Reads a JODIE-style CSV ({@code u,i,ts,...} with a header line, gzip when the name ends in
   * {@code .gz}) whose rows are already sorted by time and whose ids are already dense.
   */
  private static EventStream readJodieCsv(Path path) {
    List<int[]> ids = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    try (InputStream raw = Files.newInputStream(path);
        InputStream in = path.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line = reader.readLine(); // header
      int lineNumber = 1;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.split(",", 4);
        try {
          ids.add(new int[] {Integer.parseInt(f[0].trim()), Integer.parseInt(f[1].trim())});
          double t = Double.parseDouble(f[2].trim());
          if (!times.isEmpty() && t < times.get(times.size() - 1)) {
            throw new InputException(
                path
                    + ":"
                    + lineNumber
                    + ": time "
                    + t
                    + " is earlier than the previous row's; this reader needs rows sorted by time");
          }
          times.add(t);
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
          throw new InputException(
              path
                  + ":"
                  + lineNumber
                  + ": expected 'u,i,ts,...' with integer ids and a numeric time, got '"
                  + line
                  + "'",
              e);
        }
      }
    } catch (NoSuchFileException e) {
      throw new InputException("no such file: " + path, e);
    } catch (IOException e) {
      throw new InputException("cannot read " + path + ": " + e.getMessage(), e);
    }
    int e = ids.size();
    int[] src = new int[e];
    int[] dst = new int[e];
    double[] time = new double[e];
    int nodes = 0;
    for (int i = 0; i < e; i++) {
      src[i] = ids.get(i)[0];
      dst[i] = ids.get(i)[1];
      time[i] = times.get(i);
      nodes = Math.max(nodes, Math.max(src[i], dst[i]) + 1);
    }
    boolean bipartite = !EventStream.sharesNodes(src, dst, nodes);
    return new EventStream(
        src,
        dst,
        time,
        null,
        null,
        null,
        NodeIdMap.identity(nodes),
        bipartite,
        new IngestReport(path.toString(), DataFormat.JODIE, 0, 0));
  }

  /**
   * Where {@code wikipedia.csv.gz} is looked for without {@code --data}: the folder in the system
   * property {@code depbloom.sharedData}, then {@code ../shared/data} beside the checkout that
   * holds the jar, then {@code ../shared/data} from the working directory.
   */
  public static Path defaultDataPath() {
    List<Path> candidates = new ArrayList<>();
    String property = System.getProperty("depbloom.sharedData");
    if (property != null) {
      candidates.add(Path.of(property));
    }
    try {
      Path jar =
          Path.of(
              SamplerBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      // target/depbloom.jar or target/classes -> checkout -> ../shared/data
      candidates.add(
          jar.toAbsolutePath().getParent().getParent().resolveSibling("shared").resolve("data"));
    } catch (Exception e) {
      // no code source location: fall through to the working directory
    }
    candidates.add(Path.of("..", "shared", "data"));
    for (Path folder : candidates) {
      Path file = folder.resolve("wikipedia.csv.gz");
      if (Files.isRegularFile(file)) {
        return file;
      }
    }
    throw new InputException(
        "wikipedia.csv.gz not found in " + candidates + "; give the file with --data PATH");
  }
}
