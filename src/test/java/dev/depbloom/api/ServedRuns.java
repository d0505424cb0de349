package dev.depbloom.api;

import dev.depbloom.cli.CliRuns;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Trained runs for the serving tests: a small bipartite stream in JODIE's CSV (sparse original ids,
 * times from 500, three edge features), trained through the command line into a run folder as a
 * user would, and its events as the API takes them.
 */
public final class ServedRuns {
  public static final int EVENTS = 600;
  public static final int BATCH = 20;

  private ServedRuns() {}

  /**
   * The stream: 600 events between 40 users (ids {@code 7u + 3}) and 20 items (ids {@code 1000 +
   * i}), times from 500 in steps of 0 to 2, features in [-1, 1).
   */
  public static Path writeStream(Path file) {
    return writeStream(file, 3);
  }

  /** As {@link #writeStream(Path)}, with {@code features} edge features (0: none). */
  public static Path writeStream(Path file, int features) {
    SplittableRandom r = new SplittableRandom(31);
    StringBuilder csv =
        new StringBuilder(
            "user_id,item_id,timestamp,state_label,comma_separated_list_of_features\n");
    long t = 500;
    int lastUser = 0;
    for (int e = 0; e < EVENTS; e++) {
      int u = r.nextDouble() < 0.3 ? lastUser : (int) (40 * Math.pow(r.nextDouble(), 1.5));
      int i = (int) (20 * Math.pow(r.nextDouble(), 2));
      t += r.nextInt(3);
      csv.append(7 * u + 3).append(',').append(1000 + i).append(',').append(t).append(",0");
      for (int f = 0; f < features; f++) {
        csv.append(',').append(String.format(Locale.ROOT, "%.3f", 2 * r.nextDouble() - 1));
      }
      csv.append('\n');
      lastUser = u;
    }
    try {
      return Files.writeString(file, csv);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Trains {@code model} on {@code data} for 2 epochs into {@code out}; small dimensions. */
  public static Path train(Path data, String model, Path out) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--model",
                model,
                "--epochs",
                "2",
                "--batch-size",
                String.valueOf(BATCH),
                "--eval-negatives",
                "4",
                "--set",
                "memory.dim_out=12",
                "--set",
                "memory.dim_time=6",
                "--set",
                "gnn.dim_out=12",
                "--set",
                "gnn.dim_time=6",
                "--threads",
                "1,1",
                "--sampler-threads",
                "1",
                "--seed",
                "3",
                "--quiet",
                "--out",
                out.toString()));
    if (model.equals("dysat")) {
      args.addAll(List.of("--set", "sampling.duration=20"));
    }
    CliRuns.execute(args).succeeded();
    return out;
  }

  /** A TGN run trained on {@link #writeStream(Path)}'s stream, and that stream as loaded. */
  public record Trained(Path run, EventStream stream) {}

  /** Writes the stream into {@code dir} and trains TGN on it ({@link #train}) into {@code run}. */
  public static Trained trainTgn(Path dir) {
    Path data = writeStream(dir.resolve("events.csv"));
    return new Trained(train(data, "tgn", dir.resolve("run")), load(data));
  }

  /** The stream as loaded (original times; dense ids with their original ids). */
  public static EventStream load(Path data) {
    return EventLoader.load(data, LoadOptions.defaults());
  }

  /** Event {@code e} of {@code stream} as the API takes it: original ids and time, features. */
  public static Interaction interaction(EventStream stream, int e) {
    float[] f = new float[stream.edgeFeatures().dim()];
    stream.edgeFeatures().copyRow(e, f, 0);
    return new Interaction(
        stream.nodeIds().originalId(stream.sources()[e]),
        stream.nodeIds().originalId(stream.destinations()[e]),
        stream.times()[e],
        f);
  }

  /** Events {@code [from, to)} as the API takes them. */
  public static List<Interaction> interactions(EventStream stream, int from, int to) {
    List<Interaction> out = new ArrayList<>();
    for (int e = from; e < to; e++) {
      out.add(interaction(stream, e));
    }
    return out;
  }
}
