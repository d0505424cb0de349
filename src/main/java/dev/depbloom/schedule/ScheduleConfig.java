package dev.depbloom.schedule;

import dev.depbloom.partition.PartitionerKind;

/**
 * The {@code schedule} section of a run's config: how training is spread over {@link #devices()}
 * logical devices (docs/schedules.md, "The {@code schedule} section"). Its semantics depend only on
 * these values, never on how many workers run them. Read and written by {@link ScheduleSection}.
 *
 * <ul>
 *   <li>{@link Sequential}: one device, TGL's semantics.
 *   <li>{@link DistTgl}: DistTGL's parallelism (amazon-science/disttgl {@code train.py}): {@code i}
 *       consecutive batches per round read their memory group's memory as of the previous round;
 *       {@code k} groups keep their own memory copies and walk the training events from staggered
 *       starts. {@code devices = i * k}.
 *   <li>{@link DepBloom}: temporal windows of {@code window} events, each cut by a partitioner into
 *       {@code chains} P sub-chains; each chain trains large batches of {@code micro_batches} k
 *       micro-batches of B, on one device (placement {@code local}, the default: {@code devices = M
 *       * P} in M memory groups) or one micro-batch a device ({@code spread}: {@code M * P * k});
 *       the {@link DepBloom.Techniques} switch the other two techniques and the window-start
 *       prefill. Unset window, partitioner, chains and micro-batches (0, null) come from the
 *       dependency profile's recommendation ({@code train.Schedules.resolve}).
 * </ul>
 */
public sealed interface ScheduleConfig
    permits ScheduleConfig.Sequential, ScheduleConfig.DistTgl, ScheduleConfig.DepBloom {

  /** One device, TGL's semantics, the learning rate scaled (by one). */
  ScheduleConfig SEQUENTIAL = new Sequential(true);

  /** The schedule's name in configs: {@code sequential}, {@code disttgl} or {@code depbloom}. */
  String label();

  /** DistTGL's i: batches per round per memory group (1 for the other schedules). */
  default int minibatchParallelism() {
    return 1;
  }

  /** Memory groups: DistTGL's k, or DepBloom's M (1 for sequential). */
  default int memoryParallelism() {
    return 1;
  }

  /**
   * Logical devices G: {@code i * k} ({@code i * j * k} for DistTGL; DepBloom: {@code M * P}, or
   * {@code M * P * k} spread).
   */
  default int devices() {
    return minibatchParallelism() * memoryParallelism();
  }

  /** Whether the learning rate is multiplied by G, as DistTGL does (linear scaling). */
  boolean scaleLearningRate();

  /**
   * Separate memory copies the schedule trains with: one per memory group (DistTGL's k), and per
   * chain in DepBloom's.
   */
  default int memoryViews() {
    return memoryParallelism();
  }

  /** Whether a DepBloom schedule starts its windows with a prefill (false for the others). */
  default boolean prefill() {
    return false;
  }

  /** This schedule with the learning rate scaled by G or not ({@code schedule.scale_lr}). */
  ScheduleConfig withScaleLearningRate(boolean on);

  /** The learning rate the optimizer uses: {@code lr * G} when scaled. */
  default double learningRate(double configured) {
    return scaleLearningRate() ? configured * devices() : configured;
  }

  /** Whether DepBloom parameters are still to be chosen by the dependency profile. */
  default boolean needsProfile() {
    return false;
  }

  /** A DistTGL schedule of {@code i} batches per round in each of {@code k} memory groups. */
  static DistTgl disttgl(int i, int k, boolean scaleLearningRate) {
    return new DistTgl(i, 1, k, scaleLearningRate);
  }

  /**
   * A DistTGL schedule of {@code i} batches per round, each trained by {@code j} epoch-parallel
   * copies, in each of {@code k} memory groups.
   */
  static DistTgl disttgl(int i, int j, int k, boolean scaleLearningRate) {
    return new DistTgl(i, j, k, scaleLearningRate);
  }

  /** DistTGL's j: copies training each batch at once (1 for the other schedules). */
  default int epochParallelism() {
    return 1;
  }

  /**
   * A DepBloom schedule in {@code groups} memory groups (1: none) of {@code chains} devices, each
   * chain's large batch of {@code microBatches} on its device (the local placement), without
   * prefill.
   */
  static DepBloom depbloom(
      int groups,
      int window,
      PartitionerKind partitioner,
      int chains,
      int microBatches,
      boolean refine,
      boolean criticalPath,
      boolean scaleLearningRate) {
    return new DepBloom(
        groups * chains,
        groups,
        window,
        partitioner,
        chains,
        microBatches,
        new DepBloom.Techniques(refine, criticalPath, false),
        scaleLearningRate);
  }

  /** TGL's training on one logical device. */
  record Sequential(boolean scaleLearningRate) implements ScheduleConfig {
    @Override
    public String label() {
      return "sequential";
    }

    @Override
    public Sequential withScaleLearningRate(boolean on) {
      return new Sequential(on);
    }
  }

  /**
   * DistTGL's mini-batch parallelism {@code i} and epoch parallelism {@code j} inside each of
   * {@code k} memory groups: {@code G = i * j * k}.
   *
   * @param minibatchParallelism DistTGL's i
   * @param epochParallelism DistTGL's j
   * @param memoryParallelism DistTGL's k
   */
  record DistTgl(
      int minibatchParallelism,
      int epochParallelism,
      int memoryParallelism,
      boolean scaleLearningRate)
      implements ScheduleConfig {
    @Override
    public DistTgl withScaleLearningRate(boolean on) {
      return new DistTgl(minibatchParallelism, epochParallelism, memoryParallelism, on);
    }

    @Override
    public int devices() {
      return minibatchParallelism * epochParallelism * memoryParallelism;
    }

    @Override
    public String label() {
      return "disttgl";
    }
  }

  /**
   * DepBloom (Zhao et al., arXiv 2610.15730), possibly in memory groups; unset parameters (0, or a
   * null partitioner) are the dependency profile's to choose.
   *
   * @param devices logical devices G: {@code M * P * k} once P and k are known
   * @param memoryParallelism memory groups M (one per machine)
   * @param window events per temporal window (0: not yet resolved)
   * @param partitioner how windows are cut into sub-chains (null: not yet resolved)
   * @param chains sub-chains P (0: not yet resolved)
   * @param microBatches micro-batches per large batch k (0: not yet resolved)
   * @param techniques which of DepBloom's techniques (and the prefill) are switched on
   */
  record DepBloom(
      int devices,
      int memoryParallelism,
      int window,
      PartitionerKind partitioner,
      int chains,
      int microBatches,
      Techniques techniques,
      boolean scaleLearningRate)
      implements ScheduleConfig {

    /**
     * Where a chain's large batch of {@code k} micro-batches trains (docs/schedules.md,
     * "Placement").
     */
    public enum Placement {
      /**
       * On one device: {@code k} memory updates in micro-batch order, then one training pass over
       * the {@code k * B} events (the paper's Fig. 10c); {@code G = M * P}.
       */
      LOCAL,
      /** One micro-batch a device, refinement a chain across the chain's {@code k} devices. */
      SPREAD;

      /** The name in configs and labels. */
      public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
      }
    }

    /**
     * @param refine intra-batch memory refinement
     * @param criticalPath the hot/cold split of memory commits
     * @param prefill the window-start replay of earlier chains into later chains' views (not in the
     *     paper)
     * @param placement where a chain's large batch trains
     */
    public record Techniques(
        boolean refine, boolean criticalPath, boolean prefill, Placement placement) {
      /** These techniques, a large batch on one device (the paper's placement). */
      public Techniques(boolean refine, boolean criticalPath, boolean prefill) {
        this(refine, criticalPath, prefill, Placement.LOCAL);
      }

      /** This set with prefill switched on or off. */
      public Techniques withPrefill(boolean on) {
        return new Techniques(refine, criticalPath, on, placement);
      }

      /** This set with another placement. */
      public Techniques withPlacement(Placement value) {
        return new Techniques(refine, criticalPath, prefill, value);
      }
    }

    /** A DepBloom schedule on {@code devices} devices whose parameters the profile chooses. */
    public static DepBloom unresolved(
        int devices, int groups, Techniques techniques, boolean scaleLearningRate) {
      return new DepBloom(devices, groups, 0, null, 0, 0, techniques, scaleLearningRate);
    }

    @Override
    public String label() {
      return "depbloom";
    }

    @Override
    public int memoryViews() {
      return memoryParallelism * Math.max(1, chains);
    }

    @Override
    public boolean prefill() {
      return techniques.prefill();
    }

    public boolean refine() {
      return techniques.refine();
    }

    public boolean criticalPath() {
      return techniques.criticalPath();
    }

    public Placement placement() {
      return techniques.placement();
    }

    /**
     * Devices a chain trains on: 1 with the local placement, its {@code k} micro-batches' spread (1
     * while k is unresolved).
     */
    public int devicesPerChain() {
      return placement() == Placement.SPREAD ? Math.max(1, microBatches) : 1;
    }

    /**
     * This schedule with another placement, on the devices it then needs once P and k are known.
     */
    public DepBloom withPlacement(Placement value) {
      DepBloom d =
          new DepBloom(
              devices,
              memoryParallelism,
              window,
              partitioner,
              chains,
              microBatches,
              techniques.withPlacement(value),
              scaleLearningRate);
      return chains == 0 ? d : d.withChains(chains, microBatches);
    }

    @Override
    public boolean needsProfile() {
      return window == 0 || partitioner == null || chains == 0 || microBatches == 0;
    }

    /** Logical devices of one memory group: {@code P} (local) or {@code P * k} (spread). */
    public int devicesPerGroup() {
      return devices / memoryParallelism;
    }

    /** This schedule with another window. */
    public DepBloom withWindow(int value) {
      return new DepBloom(
          devices,
          memoryParallelism,
          value,
          partitioner,
          chains,
          microBatches,
          techniques,
          scaleLearningRate);
    }

    /** This schedule with another partitioner. */
    public DepBloom withPartitioner(PartitionerKind value) {
      return new DepBloom(
          devices,
          memoryParallelism,
          window,
          value,
          chains,
          microBatches,
          techniques,
          scaleLearningRate);
    }

    /**
     * This schedule with {@code p} chains of {@code k} micro-batches, on {@code M * p} devices
     * (local) or {@code M * p * k} (spread).
     */
    public DepBloom withChains(int p, int k) {
      return new DepBloom(
          memoryParallelism * p * (placement() == Placement.SPREAD ? k : 1),
          memoryParallelism,
          window,
          partitioner,
          p,
          k,
          techniques,
          scaleLearningRate);
    }

    @Override
    public DepBloom withScaleLearningRate(boolean on) {
      return new DepBloom(
          devices, memoryParallelism, window, partitioner, chains, microBatches, techniques, on);
    }

    /**
     * This schedule with window-start prefill switched on or off; on, an unset partitioner becomes
     * {@code contiguous} (the only one prefill works with).
     *
     * @throws IllegalArgumentException to switch it on with topology chains
     */
    public DepBloom withPrefill(boolean on) {
      String problem = on ? ScheduleSection.prefillProblem(this, partitioner) : null;
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      DepBloom d = on && partitioner == null ? withPartitioner(PartitionerKind.CONTIGUOUS) : this;
      return new DepBloom(
          d.devices,
          d.memoryParallelism,
          d.window,
          d.partitioner,
          d.chains,
          d.microBatches,
          techniques.withPrefill(on),
          d.scaleLearningRate);
    }

    /** This schedule with its unset parameters taken from these (the set ones stay). */
    public DepBloom resolvedWith(
        int window, PartitionerKind partitioner, int chains, int microBatches) {
      DepBloom d = this.window != 0 ? this : withWindow(window);
      d = this.partitioner != null ? d : d.withPartitioner(partitioner);
      d =
          d.withChains(
              this.chains != 0 ? this.chains : chains,
              this.microBatches != 0 ? this.microBatches : microBatches);
      return prefill() ? d.withPrefill(true) : d;
    }
  }
}
