package dev.depbloom.model.config;

import java.util.Locale;

/**
 * The {@code schedule} section: how training is spread over {@code devices} logical devices
 * (DESIGN.md section 3). Its semantics depend only on these values, never on how many workers run
 * them.
 *
 * <ul>
 *   <li>{@code sequential}: one device, TGL's semantics.
 *   <li>{@code disttgl}: DistTGL's parallelism (amazon-science/disttgl {@code train.py}): {@code
 *       minibatch_parallelism} i consecutive batches per round read their memory group's memory as
 *       of the previous round; {@code memory_parallelism} k groups keep their own memory copies and
 *       walk the training events from staggered starts. {@code devices = i * k}.
 *   <li>{@code depbloom}: temporal windows of {@code window} events, each cut by {@code
 *       partitioner} into {@code chains} P sub-chains; each chain trains large batches of {@code
 *       micro_batches} k micro-batches of B; {@code refine} (intra-batch memory refinement) and
 *       {@code critical_path} (hot rows first, cold rows off the critical path) switch the other
 *       two techniques. {@code devices = P * k}. Unset window, partitioner, chains and
 *       micro_batches come from the dependency profile's recommendation; {@code auto: true} has it
 *       choose all four. With {@code memory_parallelism} M &gt; 1, M memory groups (the paper's
 *       machines) each run this schedule on {@code G / M} devices over their own memory, walking
 *       the stream from staggered windows as DistTGL's groups do: {@code devices = M * P * k}.
 *       {@code prefill: true} (not in the paper; off by default) replays, at each window's start,
 *       the events of the chains before each chain into its view, so that every chain starts from
 *       the memory a sequential walk would hold there; it needs contiguous chains, and an unset
 *       partitioner becomes {@code contiguous}.
 * </ul>
 *
 * @param kind which schedule
 * @param devices logical devices G
 * @param minibatchParallelism DistTGL's i (1 otherwise)
 * @param memoryParallelism DistTGL's k, or DepBloom's memory groups M (1 otherwise)
 * @param scaleLearningRate multiply the learning rate by G, as DistTGL does (linear scaling)
 * @param window DepBloom's events per temporal window (0: not yet resolved)
 * @param partitioner DepBloom's partitioner, {@code contiguous} or {@code topology} (null: not yet
 *     resolved)
 * @param chains DepBloom's sub-chains P (0: not yet resolved)
 * @param microBatches DepBloom's micro-batches per large batch k (0: not yet resolved)
 * @param refine DepBloom's intra-batch memory refinement
 * @param criticalPath DepBloom's hot/cold split of memory commits
 * @param prefill DepBloom's window-start replay of earlier chains into later chains' views
 */
public record ScheduleConfig(
    Kind kind,
    int devices,
    int minibatchParallelism,
    int memoryParallelism,
    boolean scaleLearningRate,
    int window,
    String partitioner,
    int chains,
    int microBatches,
    boolean refine,
    boolean criticalPath,
    boolean prefill) {

  /** The schedules this build runs. */
  public enum Kind {
    SEQUENTIAL,
    DISTTGL,
    DEPBLOOM;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The partitioners DepBloom's windows can be cut with. */
  public static final java.util.List<String> PARTITIONERS =
      java.util.List.of("contiguous", "topology");

  /** One device, TGL's semantics. */
  public static final ScheduleConfig SEQUENTIAL =
      new ScheduleConfig(Kind.SEQUENTIAL, 1, 1, 1, true, 0, null, 0, 0, false, false, false);

  /** A DistTGL schedule. */
  public static ScheduleConfig disttgl(int i, int k, boolean scaleLearningRate) {
    return new ScheduleConfig(
        Kind.DISTTGL, i * k, i, k, scaleLearningRate, 0, null, 0, 0, false, false, false);
  }

  /** A DepBloom schedule. */
  public static ScheduleConfig depbloom(
      int window,
      String partitioner,
      int chains,
      int microBatches,
      boolean refine,
      boolean criticalPath,
      boolean scaleLearningRate) {
    return depbloom(
        1, window, partitioner, chains, microBatches, refine, criticalPath, scaleLearningRate);
  }

  /** A DepBloom schedule in {@code groups} memory groups of {@code chains * microBatches}. */
  public static ScheduleConfig depbloom(
      int groups,
      int window,
      String partitioner,
      int chains,
      int microBatches,
      boolean refine,
      boolean criticalPath,
      boolean scaleLearningRate) {
    return new ScheduleConfig(
        Kind.DEPBLOOM,
        groups * chains * microBatches,
        1,
        groups,
        scaleLearningRate,
        window,
        partitioner,
        chains,
        microBatches,
        refine,
        criticalPath,
        false);
  }

  /**
   * This DepBloom schedule with window-start prefill switched on or off; on, an unset partitioner
   * becomes {@code contiguous} (the only one prefill works with).
   *
   * @throws IllegalArgumentException to switch it on for another schedule or with topology chains
   */
  public ScheduleConfig withPrefill(boolean on) {
    String problem = on ? prefillProblem(kind, partitioner) : null;
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return new ScheduleConfig(
        kind,
        devices,
        minibatchParallelism,
        memoryParallelism,
        scaleLearningRate,
        window,
        on && partitioner == null ? "contiguous" : partitioner,
        chains,
        microBatches,
        refine,
        criticalPath,
        on);
  }

  /** Separate memory copies the schedule trains with: DistTGL's groups, DepBloom's chains. */
  public int memoryViews() {
    return switch (kind) {
      case SEQUENTIAL -> 1;
      case DISTTGL -> memoryParallelism;
      case DEPBLOOM -> memoryParallelism * Math.max(1, chains);
    };
  }

  /** The learning rate the optimizer uses: {@code lr * G} when scaled. */
  public double learningRate(double configured) {
    return scaleLearningRate ? configured * devices : configured;
  }

  /** Whether DepBloom parameters are still to be chosen by the dependency profile. */
  public boolean needsProfile() {
    return kind == Kind.DEPBLOOM
        && (window == 0 || partitioner == null || chains == 0 || microBatches == 0);
  }

  /** Logical devices of one memory group: DepBloom's {@code P * k} (G for other schedules). */
  public int devicesPerGroup() {
    return kind == Kind.DEPBLOOM ? devices / memoryParallelism : devices;
  }

  /** This DepBloom schedule with the unset parameters taken from a recommendation. */
  public ScheduleConfig resolvedWith(int window, String partitioner, int chains, int microBatches) {
    return depbloom(
            memoryParallelism,
            this.window != 0 ? this.window : window,
            this.partitioner != null ? this.partitioner : partitioner,
            this.chains != 0 ? this.chains : chains,
            this.microBatches != 0 ? this.microBatches : microBatches,
            refine,
            criticalPath,
            scaleLearningRate)
        .withPrefill(prefill);
  }

  /** This resolved DepBloom schedule with another window. */
  public ScheduleConfig resolvedWithWindow(int window) {
    return new ScheduleConfig(
        kind,
        devices,
        minibatchParallelism,
        memoryParallelism,
        scaleLearningRate,
        window,
        partitioner,
        chains,
        microBatches,
        refine,
        criticalPath,
        prefill);
  }

  static ScheduleConfig read(SectionReader r) {
    Kind kind = r.choice("name", Kind.class, Kind.SEQUENTIAL);
    boolean hasDevices = r.has("devices");
    boolean hasI = r.has("minibatch_parallelism");
    int devices = r.positiveInt("devices", 1);
    int k = r.positiveInt("memory_parallelism", 1);
    int i = r.positiveInt("minibatch_parallelism", 1);
    boolean scale = r.bool("scale_lr", true);
    int window = r.nonNegativeInt("window", 0);
    String partitioner = r.has("partitioner") ? partitioner(r) : null;
    int chains = r.nonNegativeInt("chains", 0);
    int microBatches = r.nonNegativeInt("micro_batches", 0);
    boolean refine = r.bool("refine", true);
    boolean criticalPath = r.bool("critical_path", true);
    boolean prefill = r.bool("prefill", false);
    if (r.bool("auto", false)) { // the profile chooses all four, whatever else says
      window = 0;
      partitioner = null;
      chains = 0;
      microBatches = 0;
    }
    String prefillProblem = prefill ? prefillProblem(kind, partitioner) : null;
    if (prefillProblem != null) {
      throw r.error("prefill", prefillProblem);
    }
    r.finish();
    return switch (kind) {
      case SEQUENTIAL -> {
        if (devices != 1 || i != 1 || k != 1) {
          throw r.error(
              devices != 1 ? "devices" : i != 1 ? "minibatch_parallelism" : "memory_parallelism",
              "the sequential schedule runs on one logical device; use --schedule disttgl or"
                  + " depbloom for more");
        }
        yield new ScheduleConfig(kind, 1, 1, 1, scale, 0, null, 0, 0, false, false, false);
      }
      case DISTTGL -> disttgl(r, devices, hasDevices, hasI, i, k, scale);
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
                  refine,
                  criticalPath,
                  scale)
              .withPrefill(prefill);
    };
  }

  /** Why prefill cannot be switched on for this schedule and partitioner, or null if it can. */
  private static String prefillProblem(Kind kind, String partitioner) {
    if (kind != Kind.DEPBLOOM) {
      return "prefill is a depbloom option; use --schedule depbloom";
    }
    if ("topology".equals(partitioner)) {
      return "prefill replays the chains before each chain, so it needs contiguous chains; set"
          + " schedule.partitioner: contiguous or leave it unset";
    }
    return null;
  }

  private static String partitioner(SectionReader r) {
    String p = r.text("partitioner").trim().toLowerCase(Locale.ROOT);
    if (!PARTITIONERS.contains(p)) {
      throw r.error("partitioner", "expected one of " + PARTITIONERS + ", got '" + p + "'");
    }
    return p;
  }

  private static ScheduleConfig disttgl(
      SectionReader r, int devices, boolean hasDevices, boolean hasI, int i, int k, boolean scale) {
    if (!hasI) {
      if (devices % k != 0) {
        throw r.error(
            "devices",
            devices
                + " logical devices cannot be split into memory_parallelism "
                + k
                + " groups of equal size");
      }
      i = devices / k;
    } else if (hasDevices && i * k != devices) {
      throw r.error(
          "devices",
          "disttgl runs minibatch_parallelism x memory_parallelism = "
              + i
              + " x "
              + k
              + " = "
              + i * k
              + " devices, not "
              + devices);
    }
    return disttgl(i, k, scale);
  }

  /**
   * P and k from each other and {@code G / M} where one is missing; both missing: left to the
   * profile.
   */
  private static ScheduleConfig depbloom(
      SectionReader r,
      int devices,
      boolean hasDevices,
      int groups,
      int window,
      String partitioner,
      int chains,
      int microBatches,
      boolean refine,
      boolean criticalPath,
      boolean scale) {
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
    return new ScheduleConfig(
        Kind.DEPBLOOM,
        chains != 0 ? groups * chains * microBatches : devices,
        1,
        groups,
        scale,
        window,
        partitioner,
        chains,
        microBatches,
        refine,
        criticalPath,
        false);
  }

  private static int divide(SectionReader r, String key, int devices, int part) {
    if (devices % part != 0) {
      throw r.error(key, devices + " logical devices are not a multiple of " + part);
    }
    return devices / part;
  }
}
