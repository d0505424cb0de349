package dev.depbloom.schedule;

import dev.depbloom.model.config.SectionReader;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.ScheduleConfig.DepBloom.Placement;
import java.util.Locale;

/**
 * Reads and writes the {@code schedule} section of a config file ({@link ScheduleConfig}): every
 * value checked as it is read, an unknown key an error naming it, and {@code config.yml} written
 * with every key explicit so that it reads back to the same record.
 */
public final class ScheduleSection {
  /** The schedules this build runs, as {@code schedule.name} names them. */
  private enum Kind {
    SEQUENTIAL,
    DISTTGL,
    DEPBLOOM
  }

  private ScheduleSection() {}

  /** The schedule a {@code schedule} section describes. */
  public static ScheduleConfig read(SectionReader r) {
    Kind kind = r.choice("name", Kind.class, Kind.SEQUENTIAL);
    boolean hasDevices = r.has("devices");
    boolean hasI = r.has("minibatch_parallelism");
    int devices = r.positiveInt("devices", 1);
    int k = r.positiveInt("memory_parallelism", 1);
    int i = r.positiveInt("minibatch_parallelism", 1);
    int j = r.positiveInt("epoch_parallelism", 1);
    boolean scale = r.bool("scale_lr", true);
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
    String prefillProblem = prefill ? prefillProblem(kind == Kind.DEPBLOOM, partitioner) : null;
    if (prefillProblem != null) {
      throw r.error("prefill", prefillProblem);
    }
    r.finish();
    return switch (kind) {
      case SEQUENTIAL -> {
        if (devices != 1 || i != 1 || j != 1 || k != 1) {
          throw r.error(
              devices != 1
                  ? "devices"
                  : i != 1
                      ? "minibatch_parallelism"
                      : j != 1 ? "epoch_parallelism" : "memory_parallelism",
              "the sequential schedule runs on one logical device; use --schedule disttgl or"
                  + " depbloom for more");
        }
        yield new ScheduleConfig.Sequential(scale);
      }
      case DISTTGL -> disttgl(r, devices, hasDevices, hasI, i, j, k, scale);
      case DEPBLOOM ->
          depbloom(
                  r,
                  devices,
                  hasDevices,
                  k,
                  window,
                  partitioner,
                  chains,
                  microBatches,
                  new ScheduleConfig.DepBloom.Techniques(refine, criticalPath, false, placement),
                  scale)
              .withPrefill(prefill);
    };
  }

  /** Appends the section as {@code config.yml} writes it, every key explicit. */
  public static void write(ScheduleConfig d, StringBuilder y) {
    y.append("schedule:\n");
    y.append("  - name: ").append(d.label()).append('\n');
    y.append("    devices: ").append(d.devices()).append('\n');
    y.append("    minibatch_parallelism: ").append(d.minibatchParallelism()).append('\n');
    y.append("    epoch_parallelism: ").append(d.epochParallelism()).append('\n');
    y.append("    memory_parallelism: ").append(d.memoryParallelism()).append('\n');
    y.append("    scale_lr: ").append(d.scaleLearningRate()).append('\n');
    if (d instanceof ScheduleConfig.DepBloom b) {
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
  }

  /** Why prefill cannot be switched on for this schedule and partitioner, or null if it can. */
  static String prefillProblem(ScheduleConfig schedule, PartitionerKind partitioner) {
    return prefillProblem(schedule instanceof ScheduleConfig.DepBloom, partitioner);
  }

  private static String prefillProblem(boolean depbloom, PartitionerKind partitioner) {
    if (!depbloom) {
      return "prefill is a depbloom option; use --schedule depbloom";
    }
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

  private static ScheduleConfig disttgl(
      SectionReader r,
      int devices,
      boolean hasDevices,
      boolean hasI,
      int i,
      int j,
      int k,
      boolean scale) {
    if (!hasI) {
      if (devices % (j * k) != 0) {
        throw r.error(
            "devices",
            devices
                + " logical devices cannot be split into memory_parallelism "
                + k
                + " groups"
                + (j > 1 ? " of epoch_parallelism " + j + " copies" : "")
                + " of equal size");
      }
      i = devices / (j * k);
    } else if (hasDevices && i * j * k != devices) {
      throw r.error(
          "devices",
          "disttgl runs minibatch_parallelism x "
              + (j > 1 ? "epoch_parallelism x " : "")
              + "memory_parallelism = "
              + i
              + " x "
              + (j > 1 ? j + " x " : "")
              + k
              + " = "
              + i * j * k
              + " devices, not "
              + devices);
    }
    return ScheduleConfig.disttgl(i, j, k, scale);
  }

  /**
   * Local placement: P is {@code G / M} where unset, k 1 where unset (the profile chooses the
   * window and the partitioner). Spread: P and k from each other and {@code G / M} where one is
   * missing; both missing: left to the profile.
   */
  private static ScheduleConfig.DepBloom depbloom(
      SectionReader r,
      int devices,
      boolean hasDevices,
      int groups,
      int window,
      PartitionerKind partitioner,
      int chains,
      int microBatches,
      ScheduleConfig.DepBloom.Techniques techniques,
      boolean scale) {
    if (techniques.placement() == Placement.LOCAL) {
      return local(
          r,
          devices,
          hasDevices,
          groups,
          window,
          partitioner,
          chains,
          microBatches,
          techniques,
          scale);
    }
    if ((chains == 0 || microBatches == 0) && devices % groups != 0) {
      throw r.error(
          "memory_parallelism",
          devices + " logical devices cannot be split into " + groups + " memory groups");
    }
    int perGroup = devices / groups;
    if (chains == 0 && microBatches != 0) {
      chains = divide(r, "micro_batches", perGroup, microBatches);
    } else if (microBatches == 0 && chains != 0) {
      microBatches = divide(r, "chains", perGroup, chains);
    } else if (chains != 0 && hasDevices && groups * chains * microBatches != devices) {
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
              + devices);
    }
    return new ScheduleConfig.DepBloom(
        chains != 0 ? groups * chains * microBatches : devices,
        groups,
        window,
        partitioner,
        chains,
        microBatches,
        techniques,
        scale);
  }

  private static ScheduleConfig.DepBloom local(
      SectionReader r,
      int devices,
      boolean hasDevices,
      int groups,
      int window,
      PartitionerKind partitioner,
      int chains,
      int microBatches,
      ScheduleConfig.DepBloom.Techniques techniques,
      boolean scale) {
    if (chains == 0) {
      if (devices % groups != 0) {
        throw r.error(
            "memory_parallelism",
            devices + " logical devices cannot be split into " + groups + " memory groups");
      }
      chains = devices / groups;
    } else if (hasDevices && groups * chains != devices) {
      throw r.error(
          "devices",
          "depbloom with placement local runs memory_parallelism x chains = "
              + groups
              + " x "
              + chains
              + " = "
              + groups * chains
              + " devices (each chain's micro-batches on its one device), not "
              + devices
              + "; set schedule.placement: spread for one micro-batch a device");
    }
    return new ScheduleConfig.DepBloom(
        groups * chains,
        groups,
        window,
        partitioner,
        chains,
        microBatches == 0 ? 1 : microBatches,
        techniques,
        scale);
  }

  private static int divide(SectionReader r, String key, int devices, int part) {
    if (devices % part != 0) {
      throw r.error(key, devices + " logical devices are not a multiple of " + part);
    }
    return devices / part;
  }
}
