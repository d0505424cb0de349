package dev.depbloom.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.bench.Calibration;
import dev.depbloom.data.InputException;
import dev.depbloom.data.load.EmbeddedDatasets;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code depbloom bench calibrate}: fits the device models' launch overhead on one published figure
 * and projects every other (published, or measured on the project's GPU) beside its value.
 */
@Command(
    name = "calibrate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Calibrates the GPU device models (docs/projection.md): records one training epoch of each"
          + " model and batch that dev/depbloom/devices/published.yml names on the embedded"
          + " Wikipedia stream, fits the one free constant (launch overhead) on the figure of role"
          + " 'fit', and prints every figure projected beside its published or measured value,"
          + " with the error. A few minutes (TGAT's epoch dominates); --max-rounds shortens it.",
      ""
    })
final class CalibrateBenchCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = "--max-rounds",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Record at most the first N rounds of each epoch; they stand for the rest (0: all).")
  int maxRounds;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Also write calibration.json and calibration.md into DIR, and projected-DEVICE.json"
              + " for every device with figures measured by bench/gpu-check.sh (its quantities in"
              + " milliseconds, which the check prints beside what it measures: --out bench/gpu).")
  Path out;

  @Option(
      names = "--figures",
      paramLabel = "IDS",
      split = ",",
      description =
          "Only the figures whose ids start with these (e.g. h200 for the GPU check's);"
              + " each device's fit figure must be among them.")
  List<String> figures = new ArrayList<>();

  @Mixin JsonOption output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (maxRounds < 0) {
      throw new InputException("--max-rounds: expected N >= 0, got " + maxRounds);
    }
    PrintWriter err = spec.commandLine().getErr();
    Calibration.Result r =
        Calibration.run(
            EmbeddedDatasets.wikipedia(),
            Calibration.only(Calibration.published(), figures),
            maxRounds,
            line -> err.println("depbloom: " + line));
    String table = table(r);
    ObjectNode json = json(r);
    if (out != null) {
      try {
        Files.createDirectories(out);
        Files.writeString(out.resolve("calibration.md"), table);
        Files.writeString(out.resolve("calibration.json"), json.toPrettyString() + "\n");
        for (var e : checkProjections(r).entrySet()) {
          Files.writeString(
              out.resolve("projected-" + e.getKey() + ".json"),
              e.getValue().toPrettyString() + "\n");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    PrintWriter o = spec.commandLine().getOut();
    o.print(table);
    if (output.json) {
      o.println(json);
    }
    o.flush();
    return 0;
  }

  static String table(Calibration.Result r) {
    StringBuilder t = new StringBuilder();
    for (var m : r.models().entrySet()) {
      t.append(
          String.format(
              Locale.ROOT,
              "%s: launch overhead fitted to %.2f us%n",
              m.getKey(),
              m.getValue().launchSeconds() * 1e6));
    }
    t.append('\n');
    t.append(
        "| figure | kind | role | device | model | batch | what | value | projected | error |"
            + " kernels/batch |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Calibration.Row row : r.rows()) {
      Calibration.Figure f = row.figure();
      t.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %+.0f%% | %,d |%n",
              f.id(),
              f.kind(),
              f.role(),
              f.device(),
              f.model(),
              batches(f),
              f.measure(),
              value(f.measure(), f.value()),
              value(f.measure(), row.projected()),
              100 * row.errorShare(),
              row.kernelsPerBatch()));
    }
    return t.toString();
  }

  private static String batches(Calibration.Figure f) {
    return f.batches().length == 1
        ? String.valueOf(f.batches()[0])
        : f.batches()[0] + " -> " + f.batches()[1];
  }

  private static String value(String measure, double v) {
    return switch (measure) {
      case "batch" -> String.format(Locale.ROOT, "%.2f ms", v * 1e3);
      case "batch_ratio" -> String.format(Locale.ROOT, "%.3fx", v);
      default -> String.format(Locale.ROOT, "%.2f s", v);
    };
  }

  /**
   * Per device with figures of {@code bench/gpu-check.sh}, their projections under its keys (in
   * milliseconds), with a comment saying which one the device was fitted on.
   */
  static java.util.Map<String, ObjectNode> checkProjections(Calibration.Result r) {
    java.util.Map<String, ObjectNode> out = new java.util.TreeMap<>();
    for (Calibration.Row row : r.rows()) {
      Calibration.Figure f = row.figure();
      if (f.checkKey() == null) {
        continue;
      }
      ObjectNode o =
          out.computeIfAbsent(
              f.device(),
              d -> {
                ObjectNode n = JSON.createObjectNode();
                n.put(
                    "_comment",
                    "projected by `depbloom bench calibrate` for "
                        + d
                        + " from the work DepBloom-J records (its own TGN, deduplicated); figures"
                        + " of role 'fit' match by construction");
                return n;
              });
      o.put(f.checkKey(), row.projected() * 1e3);
      for (String also : f.checkAlso()) {
        o.put(also, row.projected() * 1e3);
      }
      if (f.role().equals("fit")) {
        o.put("_fitted_on", f.checkKey());
      }
    }
    return out;
  }

  static ObjectNode json(Calibration.Result r) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode fitted = root.putObject("launchOverheadMicros");
    r.models().forEach((name, m) -> fitted.put(name, m.launchSeconds() * 1e6));
    ArrayNode rows = root.putArray("figures");
    for (Calibration.Row row : r.rows()) {
      Calibration.Figure f = row.figure();
      ObjectNode o = rows.addObject();
      o.put("id", f.id());
      o.put("kind", f.kind());
      o.put("role", f.role());
      o.put("device", f.device());
      o.put("model", f.model());
      ArrayNode b = o.putArray("batches");
      for (int x : f.batches()) {
        b.add(x);
      }
      o.put("measure", f.measure());
      o.put("value", f.value());
      o.put("projected", row.projected());
      o.put("error", row.errorShare());
      o.put("kernelsPerBatch", row.kernelsPerBatch());
      o.put("reading", f.reading());
      o.put("source", f.source());
    }
    return root;
  }
}
