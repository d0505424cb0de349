package dev.depbloom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.depbloom.data.EventStream;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.GpuRoundModel;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Calibration of the device models, kept honest (docs/projection.md, "Calibration"): the one free
 * constant of a device model, its launch overhead, is fitted on one published figure; every other
 * figure, published or measured on the project's GPU, is then projected with nothing changed and
 * set beside its value. A figure is projected from the work this project records for the same
 * model, batch and data ({@link WorkRecording}), priced by {@link GpuRoundModel} with memory on the
 * device (TGL keeps it on the GPU for one GPU); host sampling is not charged (the published timers
 * include TGL's parallel sampler, which this 2-core host does not stand for). The figures are
 * {@code dev/depbloom/devices/published.yml}.
 */
public final class Calibration {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Calibration() {}

  /** One figure of {@code published.yml}. */
  public record Figure(
      String id,
      String role,
      String kind,
      String device,
      List<String> fitAlso,
      String model,
      int[] batches,
      int edgeFeatureDim,
      String measure,
      double value,
      String reading,
      String source,
      String checkKey,
      List<String> checkAlso) {}

  /** A figure and its projection; {@code errorShare} is projected / value - 1. */
  public record Row(Figure figure, double projected, double errorShare, long kernelsPerBatch) {}

  /** The fitted models (by name; their launch overhead fitted) and every figure projected. */
  public record Result(Map<String, DeviceModel> models, List<Row> rows) {}

  /** The shipped figures. */
  public static List<Figure> published() {
    try (InputStream in =
        Calibration.class.getResourceAsStream("/dev/depbloom/devices/published.yml")) {
      List<Figure> out = new ArrayList<>();
      for (JsonNode f : YAML.readTree(in).get("figures")) {
        List<String> also = new ArrayList<>();
        if (f.has("fit_also")) {
          f.get("fit_also").forEach(n -> also.add(n.asText()));
        }
        JsonNode b = f.has("batches") ? f.get("batches") : f.get("batch");
        int[] batches =
            b.isArray() ? new int[] {b.get(0).asInt(), b.get(1).asInt()} : new int[] {b.asInt()};
        out.add(
            new Figure(
                f.get("id").asText(),
                f.get("role").asText(),
                f.get("kind").asText(),
                f.get("device").asText(),
                List.copyOf(also),
                f.get("model").asText(),
                batches,
                f.get("edge_feature_dim").asInt(),
                f.get("measure").asText(),
                f.get("value").asDouble(),
                f.get("reading").asText(),
                f.get("source").asText(),
                f.has("check_key") ? f.get("check_key").asText() : null,
                texts(f.get("check_also"))));
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read the shipped published.yml", e);
    }
  }

  private static List<String> texts(JsonNode list) {
    List<String> out = new ArrayList<>();
    if (list != null) {
      list.forEach(n -> out.add(n.asText()));
    }
    return List.copyOf(out);
  }

  /** The figures whose ids start with one of {@code prefixes} (empty: all). */
  public static List<Figure> only(List<Figure> figures, List<String> prefixes) {
    return prefixes.isEmpty()
        ? figures
        : figures.stream().filter(f -> prefixes.stream().anyMatch(f.id()::startsWith)).toList();
  }

  /**
   * Fits the launch overhead on the figure of role {@code fit} (into its device and its {@code
   * fit_also} devices), then projects every figure. {@code maxRounds} caps the rounds recorded per
   * epoch (0: all; the first ones then stand for the rest). Reports each recording as it starts.
   */
  public static Result run(
      EventStream wikipedia, List<Figure> figures, int maxRounds, Consumer<String> progress) {
    Map<String, List<RoundWork>> recorded = new HashMap<>();
    for (Figure f : figures) {
      for (int batch : f.batches()) {
        recorded.computeIfAbsent(
            key(f.model(), batch, f.edgeFeatureDim()),
            k -> {
              progress.accept(
                  "recording one epoch of " + f.model() + " at batch " + batch + " (" + k + ")");
              return WorkRecording.firstEpoch(
                  wikipedia, f.model(), batch, f.edgeFeatureDim(), maxRounds);
            });
      }
    }
    Map<String, DeviceModel> models = new LinkedHashMap<>();
    for (Figure fit : figures) {
      if (fit.role().equals("fit")) {
        if (models.containsKey(fit.device())) {
          throw new IllegalArgumentException("two figures fit " + fit.device());
        }
        DeviceModel base = DeviceModel.load(fit.device());
        double launch = fitLaunch(base, fit, recorded);
        models.put(fit.device(), base.withLaunchSeconds(launch));
        for (String d : fit.fitAlso()) {
          models.put(d, DeviceModel.load(d).withLaunchSeconds(launch));
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (Figure f : figures) {
      DeviceModel m = models.getOrDefault(f.device(), DeviceModel.load(f.device()));
      double projected = project(m, f, recorded);
      long kernels = kernelsPerBatch(work(recorded, f, 0));
      rows.add(new Row(f, projected, projected / f.value() - 1, kernels));
    }
    return new Result(models, rows);
  }

  private static String key(String model, int batch, int edgeFeatureDim) {
    return model + "-b" + batch + "-e" + edgeFeatureDim;
  }

  private static List<RoundWork> work(Map<String, List<RoundWork>> recorded, Figure f, int b) {
    return recorded.get(key(f.model(), f.batches()[b], f.edgeFeatureDim()));
  }

  /** A figure's projected value on {@code model}. */
  static double project(DeviceModel model, Figure f, Map<String, List<RoundWork>> recorded) {
    return switch (f.measure()) {
      case "train_epoch" -> epochSeconds(model, work(recorded, f, 0));
      case "batch" -> epochSeconds(model, work(recorded, f, 0)) / work(recorded, f, 0).size();
      case "batch_ratio" -> {
        List<RoundWork> small = work(recorded, f, 0);
        List<RoundWork> large = work(recorded, f, 1);
        yield (epochSeconds(model, large) / large.size())
            / (epochSeconds(model, small) / small.size());
      }
      default -> throw new IllegalArgumentException("unknown measure " + f.measure());
    };
  }

  /** The rounds on one GPU with memory on it, sampling hidden (see the class comment). */
  static double epochSeconds(DeviceModel model, List<RoundWork> rounds) {
    GpuRoundModel gpu = new GpuRoundModel(model, MemoryPlacement.DEVICE, 1);
    double s = 0;
    for (RoundWork w : rounds) {
      s += gpu.round(w, Double.POSITIVE_INFINITY).seconds();
    }
    return s;
  }

  /**
   * The launch overhead at which {@code fit} projects to its value on {@code model} (bisection: a
   * projection grows with the overhead); 0 or 1 ms at the ends when no overhead in between fits.
   */
  static double fitLaunch(DeviceModel model, Figure fit, Map<String, List<RoundWork>> recorded) {
    double lo = 0;
    double hi = 1e-3;
    for (int i = 0; i < 60; i++) {
      double mid = (lo + hi) / 2;
      if (project(model.withLaunchSeconds(mid), fit, recorded) < fit.value()) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private static long kernelsPerBatch(List<RoundWork> rounds) {
    long k = 0;
    for (RoundWork w : rounds) {
      for (RoundWork.ItemWork i : w.items()) {
        k +=
            i.fetch().size()
                + i.memoryUpdate().size()
                + i.refine().size()
                + i.train().size()
                + i.memoryWrite().size();
      }
      k += w.optimizer().size();
      for (RoundWork.ViewCommit c : w.commits()) {
        k += c.kernels().size();
      }
    }
    return rounds.isEmpty() ? 0 : k / rounds.size();
  }
}
