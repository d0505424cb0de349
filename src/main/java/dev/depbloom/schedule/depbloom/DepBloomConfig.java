package dev.depbloom.schedule.depbloom;

import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.ScheduleConfig;

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
public record DepBloomConfig(
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
   * A DepBloom schedule in {@code groups} memory groups (1: none) of {@code chains} devices, each
   * chain's large batch of {@code microBatches} on its device (the local placement), without
   * prefill.
   */
  public static DepBloomConfig of(
      int groups,
      int window,
      PartitionerKind partitioner,
      int chains,
      int microBatches,
      boolean refine,
      boolean criticalPath,
      boolean scaleLearningRate) {
    return new DepBloomConfig(
        groups * chains,
        groups,
        window,
        partitioner,
        chains,
        microBatches,
        new Techniques(refine, criticalPath, false),
        scaleLearningRate);
  }

  /**
   * Where a chain's large batch of {@code k} micro-batches trains (docs/schedules.md, "Placement").
   */
  public enum Placement {
    /**
     * On one device: {@code k} memory updates in micro-batch order, then one training pass over the
     * {@code k * B} events (the paper's Fig. 10c); {@code G = M * P}.
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
  public static DepBloomConfig unresolved(
      int devices, int groups, Techniques techniques, boolean scaleLearningRate) {
    return new DepBloomConfig(devices, groups, 0, null, 0, 0, techniques, scaleLearningRate);
  }

  @Override
  public String label() {
    return DepBloomFamily.NAME;
  }

  @Override
  public int memoryViews() {
    return memoryParallelism * Math.max(1, chains);
  }

  /** Whether the schedule starts its windows with a prefill. */
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

  /** This schedule with another placement, on the devices it then needs once P and k are known. */
  public DepBloomConfig withPlacement(Placement value) {
    DepBloomConfig d =
        new DepBloomConfig(
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
  public boolean needsResolution() {
    return window == 0 || partitioner == null || chains == 0 || microBatches == 0;
  }

  /** Logical devices of one memory group: {@code P} (local) or {@code P * k} (spread). */
  public int devicesPerGroup() {
    return devices / memoryParallelism;
  }

  /** This schedule with another window. */
  public DepBloomConfig withWindow(int value) {
    return new DepBloomConfig(
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
  public DepBloomConfig withPartitioner(PartitionerKind value) {
    return new DepBloomConfig(
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
  public DepBloomConfig withChains(int p, int k) {
    return new DepBloomConfig(
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
  public DepBloomConfig withScaleLearningRate(boolean on) {
    return new DepBloomConfig(
        devices, memoryParallelism, window, partitioner, chains, microBatches, techniques, on);
  }

  /**
   * This schedule with window-start prefill switched on or off; on, an unset partitioner becomes
   * {@code contiguous} (the only one prefill works with).
   *
   * @throws IllegalArgumentException to switch it on with topology chains
   */
  public DepBloomConfig withPrefill(boolean on) {
    String problem = on ? DepBloomSection.prefillProblem(partitioner) : null;
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    DepBloomConfig d =
        on && partitioner == null ? withPartitioner(PartitionerKind.CONTIGUOUS) : this;
    return new DepBloomConfig(
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
  public DepBloomConfig resolvedWith(
      int window, PartitionerKind partitioner, int chains, int microBatches) {
    DepBloomConfig d = this.window != 0 ? this : withWindow(window);
    d = this.partitioner != null ? d : d.withPartitioner(partitioner);
    d =
        d.withChains(
            this.chains != 0 ? this.chains : chains,
            this.microBatches != 0 ? this.microBatches : microBatches);
    return prefill() ? d.withPrefill(true) : d;
  }
}
