package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.depbloom.bench.DeviceRecommendation;
import dev.depbloom.bench.LocalBatchRecommendation;
import dev.depbloom.bench.WorkRecording;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.data.synthetic.ProgressListener;
import dev.depbloom.model.config.MemoryConfig;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.profile.ReadRule;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.train.RunConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code depbloom profile}: the dependency profile of a data set and a recommended schedule. */
@Command(
    name = "profile",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Before any training, measure on the training split how the dependencies of the stream fare"
          + " under DepBloom's techniques: per window size, partitioner (contiguous, topology) and"
          + " chain count P dividing G, the cross-chain event share, lost dependencies, the"
          + " events reading older memory than sequential at batch B on the candidate's own"
          + " batches of k = G/P micro-batches (without and with refinement) and chain balance;"
          + " per k, the intra-batch stale share; the hot/cold share of written rows per batch;"
          + " and recommend the window, partitioner, P and k with P*k = G whose batches read"
          + " stale memory least (without refinement).",
      ""
    })
final class ProfileCommand implements Callable<Integer> {
  @Mixin DataOptions data;

  @Option(
      names = "--devices",
      paramLabel = "G",
      defaultValue = "8",
      description = "Logical devices G = P * k (default: ${DEFAULT-VALUE}).")
  int devices;

  @Option(
      names = "--batch-size",
      paramLabel = "B",
      defaultValue = "600",
      description = "Events per micro-batch B (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      names = "--windows",
      paramLabel = "W[,W...]",
      split = ",",
      description =
          "Candidate window sizes in events (default: the multiples of G x B nearest to"
              + " 4000, 12000 and 40000).")
  List<Integer> windows;

  @Option(
      names = "--read-rule",
      paramLabel = "RULE",
      defaultValue = "own-writes",
      converter = ReadRuleConverter.class,
      description = {
        "Read rule the recommendation judges reads by (both are reported):"
            + " owned-rows (the design's rule, docs/profile.md: a chain reads only its own nodes'"
            + " rows as it writes them) or own-writes (a chain also reads its own writes to other"
            + " chains' nodes: what the depbloom schedule does). Default: ${DEFAULT-VALUE}."
      })
  ReadRule readRule;

  @Option(
      names = "--device-model",
      paramLabel = "NAME",
      description =
          "Also price every candidate on this GPU device model (a100-pcie, a100-nvlink, rtx4090,"
              + " h200, or a YAML file) from one recorded training item of --model at batch B, and"
              + " recommend the candidate with the most projected events/s among those within one"
              + " point of the fewest events at risk.")
  String deviceModel;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      defaultValue = "tgn",
      description = "The model whose recorded item prices the candidates (default tgn).")
  String model;

  @Option(
      names = "--edge-feature-dim",
      paramLabel = "W",
      description = "Zero edge features of width W for the recording, on data without them.")
  Integer edgeFeatureDim;

  @Option(
      names = "--record-rounds",
      paramLabel = "N",
      defaultValue = "20",
      description = "Training rounds recorded for the pricing (default 20).")
  int recordRounds;

  @Option(
      names = "--min-steps",
      paramLabel = "N",
      defaultValue = "46",
      description =
          "With --device-model, the local placement's k > 1 is recommended only where it keeps at"
              + " least N optimizer steps an epoch (default 46: the LB+IMR(4) run on Wikipedia TGN"
              + " that held accuracy, docs/measurements/fig15-wikipedia.md).")
  int minSteps;

  @Mixin JsonOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProfileSettings settings = settings();
    DeviceModel device = deviceModel == null ? null : pricingModel();
    EventStream events = RunSetup.loadData(data.path, data.load.toLoadOptions(err), null);
    String source = data.source();
    Split split = Split.of(events);
    if (split.trainEnd() == 0) {
      throw new InputException(source + ": the training split is empty; nothing to profile");
    }
    long start = System.nanoTime();
    DependencyProfile profile = DependencyProfile.of(events, split, settings, progressTo(err));
    double seconds = (System.nanoTime() - start) / 1e9;
    DeviceRecommendation.Result priced =
        device == null ? null : priced(profile, events, settings, device, err);
    LocalBatchRecommendation.Result local =
        device == null ? null : local(events, settings, device, err);
    if (output.json) {
      out.println(ProfileReport.json(profile, source, seconds, priced, local));
    } else {
      out.print(ProfileReport.tables(profile, source, seconds));
      if (priced != null) {
        out.print(ProfileReport.priced(priced));
        out.print(ProfileReport.local(local));
      }
    }
    out.flush();
    return 0;
  }

  /** The candidates priced on {@code --device-model} from a short recording of {@code --model}. */
  private DeviceRecommendation.Result priced(
      DependencyProfile profile,
      EventStream events,
      ProfileSettings settings,
      DeviceModel m,
      PrintWriter err) {
    err.println(
        "profile: recording "
            + recordRounds
            + " training rounds of "
            + model
            + " at batch "
            + settings.batchSize()
            + " to price the candidates on "
            + m.name());
    err.flush();
    int edge = edgeFeatureDim == null ? 0 : edgeFeatureDim;
    List<RoundWork> recorded =
        WorkRecording.firstEpoch(events, model, settings.batchSize(), edge, recordRounds).stream()
            .limit(recordRounds)
            .toList();
    MemoryConfig memory = RunConfig.zoo(model, java.util.Map.of()).model().memory();
    int edgeDim = events.edgeFeatures().dim() > 0 ? events.edgeFeatures().dim() : edge;
    long rowBytes =
        4L * memory.dim() + 8 + (4L * memory.mailDim(edgeDim) + 8) * memory.mailboxSize() + 4;
    return DeviceRecommendation.recommend(profile, recorded, m, rowBytes);
  }

  /** The local placement's k priced on {@code --device-model} (issue 45). */
  private LocalBatchRecommendation.Result local(
      EventStream events, ProfileSettings settings, DeviceModel device, PrintWriter err) {
    return LocalBatchRecommendation.recommend(
        events,
        model,
        settings.devices(),
        settings.batchSize(),
        edgeFeatureDim == null ? 0 : edgeFeatureDim,
        recordRounds,
        device,
        minSteps,
        err);
  }

  /**
   * {@code --device-model} loaded once for both pricings, and the pricing options checked before
   * the profile's work.
   */
  private DeviceModel pricingModel() {
    DeviceModel m = DeviceModel.load(deviceModel);
    if (recordRounds < 1) {
      throw new InputException("--record-rounds: expected at least 1, got " + recordRounds);
    }
    if (minSteps < 1) {
      throw new InputException("--min-steps: expected at least 1, got " + minSteps);
    }
    return m;
  }

  private ProfileSettings settings() {
    if (devices < 1) {
      throw new InputException("--devices: expected at least 1 device, got " + devices);
    }
    if (batchSize < 1) {
      throw new InputException("--batch-size: expected at least 1 event, got " + batchSize);
    }
    List<Integer> w =
        windows != null ? windows : ProfileSettings.defaultWindows(devices, batchSize);
    for (int size : w) {
      if (size < 1) {
        throw new InputException("--windows: expected positive window sizes, got " + size);
      }
    }
    return new ProfileSettings(devices, batchSize, w, readRule);
  }

  /** A progress line on stderr, redrawn in place on a console, one line per stage otherwise. */
  private static ProgressListener progressTo(PrintWriter err) {
    boolean console = System.console() != null;
    return (stage, done, total) -> {
      if (console) {
        err.printf(Locale.ROOT, "\rprofile: %s %d/%d\u001b[K", stage, done, total);
        if (done == total) {
          err.println();
        }
      } else if (done == total) {
        err.printf(Locale.ROOT, "profile: %s %d/%d done%n", stage, done, total);
      }
      err.flush();
    };
  }

  static final class ReadRuleConverter implements CommandLine.ITypeConverter<ReadRule> {
    @Override
    public ReadRule convert(String value) {
      try {
        return ReadRule.byLabel(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
