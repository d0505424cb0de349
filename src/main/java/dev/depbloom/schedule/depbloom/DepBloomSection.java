package dev.depbloom.schedule.depbloom;

import dev.depbloom.model.config.SectionReader;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.ScheduleSection;
import dev.depbloom.schedule.depbloom.DepBloomConfig.Placement;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code depbloom} family's keys of the {@code schedule} section: read and checked ({@link
 * #read}), written back ({@link #write}).
 */
final class DepBloomSection {
  /** The family's own keys; {@code memory_parallelism} (M) and {@code devices} are common. */
  static final Set<String> KEYS =
      Set.of(
          "window",
          "partitioner",
          "chains",
          "micro_batches",
          "refine",
          "critical_path",
          "prefill",
          "placement",
          "auto");

  private DepBloomSection() {}

  static DepBloomConfig read(SectionReader r, ScheduleSection.Common c) {
    if (c.minibatchParallelism() != 1 || c.epochParallelism() != 1) {
      throw r.error(
          c.minibatchParallelism() != 1 ? "minibatch_parallelism" : "epoch_parallelism",
          "a parallelism of disttgl; depbloom's are chains, micro_batches and"
              + " memory_parallelism");
    }
    int window = r.nonNegativeInt("window", 0);
    PartitionerKind partitioner = r.has("partitioner") ? partitioner(r) : null;
    int chains = r.nonNegativeInt("chains", 0);
    int microBatches = r.nonNegativeInt("micro_batches", 0);
    boolean refine = r.bool("refine", true);
    boolean criticalPath = r.bool("critical_path", true);
    boolean prefill = r.bool("prefill", false);
    Placement placement = r.choice("placement", Placement.class, Placement.LOCAL);
    if (r.bool("auto", false)) { // the profile chooses all four, whatever else says
      window = 0;
      partitioner = null;
      chains = 0;
      microBatches = 0;
    }
    String prefillProblem = prefill ? prefillProblem(partitioner) : null;
    if (prefillProblem != null) {
      throw r.error("prefill", prefillProblem);
    }
    DepBloomConfig.Techniques techniques =
        new DepBloomConfig.Techniques(refine, criticalPath, false, placement);
    Shape s =
        new Shape(
            c.devices(),
            c.devicesGiven(),
            c.memoryParallelism(),
            chains,
            microBatches,
            window,
            partitioner,
            techniques,
            c.scaleLearningRate());
    DepBloomConfig d = placement == Placement.LOCAL ? local(r, s) : spread(r, s);
    return d.withPrefill(prefill);
  }

  static void write(DepBloomConfig b, StringBuilder y) {
    y.append("    window: ").append(b.window()).append('\n');
    if (b.partitioner() != null) {
      y.append("    partitioner: ").append(b.partitioner().label()).append('\n');
    }
    y.append("    chains: ").append(b.chains()).append('\n');
    y.append("    micro_batches: ").append(b.microBatches()).append('\n');
    y.append("    refine: ").append(b.refine()).append('\n');
    y.append("    critical_path: ").append(b.criticalPath()).append('\n');
    y.append("    prefill: ").append(b.prefill()).append('\n');
    y.append("    placement: ").append(b.placement().label()).append('\n');
  }

  /** Why prefill cannot be switched on for this partitioner, or null if it can. */
  static String prefillProblem(PartitionerKind partitioner) {
    if (partitioner == PartitionerKind.TOPOLOGY) {
      return "prefill replays the chains before each chain, so it needs contiguous chains; set"
          + " schedule.partitioner: contiguous or leave it unset";
    }
    return null;
  }

  private static PartitionerKind partitioner(SectionReader r) {
    String p = r.text("partitioner").trim().toLowerCase(Locale.ROOT);
    if (!PartitionerKind.labels().contains(p)) {
      throw r.error(
          "partitioner", "expected one of " + PartitionerKind.labels() + ", got '" + p + "'");
    }
    return PartitionerKind.of(p);
  }

  /**
   * The section as read, before P and k are completed: G (and whether set), M, P and k (0 unset),
   * and the rest of the config.
   */
  private record Shape(
      int devices,
      boolean devicesGiven,
      int groups,
      int chains,
      int microBatches,
      int window,
      PartitionerKind partitioner,
      DepBloomConfig.Techniques techniques,
      boolean scaleLearningRate) {}

  /**
   * Spread placement: P and k from each other and {@code G / M} where one is missing; both missing:
   * left to the profile.
   */
  private static DepBloomConfig spread(SectionReader r, Shape s) {
    int chains = s.chains();
    int microBatches = s.microBatches();
    int groups = s.groups();
    if ((chains == 0 || microBatches == 0) && s.devices() % groups != 0) {
      throw r.error(
          "memory_parallelism",
          s.devices() + " logical devices cannot be split into " + groups + " memory groups");
    }
    int perGroup = s.devices() / groups;
    if (chains == 0 && microBatches != 0) {
      chains = divide(r, "micro_batches", perGroup, microBatches);
    } else if (microBatches == 0 && chains != 0) {
      microBatches = divide(r, "chains", perGroup, chains);
    } else if (chains != 0 && s.devicesGiven() && groups * chains * microBatches != s.devices()) {
      throw r.error(
          "devices",
          "depbloom runs memory_parallelism x chains x micro_batches = "
              + groups
              + " x "
              + chains
              + " x "
              + microBatches
              + " = "
              + groups * chains * microBatches
              + " devices, not "
              + s.devices());
    }
    return new DepBloomConfig(
        chains != 0 ? groups * chains * microBatches : s.devices(),
        groups,
        s.window(),
        s.partitioner(),
        chains,
        microBatches,
        s.techniques(),
        s.scaleLearningRate());
  }

  /** Local placement: P is {@code G / M} where unset, k 1 where unset. */
  private static DepBloomConfig local(SectionReader r, Shape s) {
    int chains = s.chains();
    int groups = s.groups();
    if (chains == 0) {
      if (s.devices() % groups != 0) {
        throw r.error(
            "memory_parallelism",
            s.devices() + " logical devices cannot be split into " + groups + " memory groups");
      }
      chains = s.devices() / groups;
    } else if (s.devicesGiven() && groups * chains != s.devices()) {
      throw r.error(
          "devices",
          "depbloom with placement local runs memory_parallelism x chains = "
              + groups
              + " x "
              + chains
              + " = "
              + groups * chains
              + " devices (each chain's micro-batches on its one device), not "
              + s.devices()
              + "; set schedule.placement: spread for one micro-batch a device");
    }
    return new DepBloomConfig(
        groups * chains,
        groups,
        s.window(),
        s.partitioner(),
        chains,
        s.microBatches() == 0 ? 1 : s.microBatches(),
        s.techniques(),
        s.scaleLearningRate());
  }

  private static int divide(SectionReader r, String key, int devices, int part) {
    if (devices % part != 0) {
      throw r.error(key, devices + " logical devices are not a multiple of " + part);
    }
    return devices / part;
  }
}
