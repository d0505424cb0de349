package dev.depbloom.bench;

import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.ScheduleConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rows a comparison trains at G devices (issue 34: every {@code disttgl} split by default, and
 * the rows that separate DepBloom's techniques from memory groups and prefill):
 *
 * <ul>
 *   <li>{@code sequential} (TGL), which sets the target;
 *   <li>{@code disttgl} at every (i, k) split of G, {@code i = 1, k = G} included;
 *   <li>{@code depbloom}: the dependency profile's choice on all G devices, and the same in M = 2,
 *       4, ... memory groups (the profile choosing inside each group of G / M devices), without
 *       prefill: partitioning (and refinement where the profile picks micro-batches) on top of
 *       DistTGL's own memory groups;
 *   <li>{@code depbloom prefill}: the same rows with window-start prefill (our addition), so that
 *       {@code depbloom prefill M=m} against {@code depbloom M=m} is prefill's share and {@code
 *       depbloom M=m} against {@code disttgl i=G/m k=m} the share of partitioning in windows;
 *   <li>{@code ablations}: partitioning only, refinement only, no critical path.
 * </ul>
 */
public final class Candidates {
  private Candidates() {}

  /** The groups of rows; {@code sequential} always runs, since it sets the target. */
  public enum RowGroup {
    /** {@code disttgl} at every (i, k) split of G. */
    DISTTGL,
    /** {@code depbloom} with the profile's choice, alone and in memory groups, without prefill. */
    DEPBLOOM,
    /** The {@code depbloom} rows with window-start prefill. */
    PREFILL,
    /** {@code depbloom}'s ablations: partitioning only, refinement only, no critical path. */
    ABLATIONS;

    /** The group of a name as the command line spells it. */
    public static RowGroup of(String name) {
      for (RowGroup g : values()) {
        if (g.name().equalsIgnoreCase(name.trim())) {
          return g;
        }
      }
      throw new IllegalArgumentException(
          "unknown row group '" + name + "' (disttgl, depbloom, prefill, ablations)");
    }
  }

  /**
   * The rows at G devices on {@code workers} workers; {@code disttglK} limits the disttgl rows to
   * those memory-group counts k (empty: every divisor of G).
   */
  public static List<RowRun.Candidate> of(
      int devices, int workers, Set<RowGroup> groups, Set<Integer> disttglK) {
    List<RowRun.Candidate> c = new ArrayList<>();
    c.add(new RowRun.Candidate("sequential", ScheduleConfig.SEQUENTIAL, workers));
    for (int k = 1; k <= devices; k++) {
      if (groups.contains(RowGroup.DISTTGL)
          && devices % k == 0
          && (disttglK.isEmpty() || disttglK.contains(k))) {
        c.add(
            new RowRun.Candidate(
                "disttgl i=" + devices / k + " k=" + k,
                ScheduleConfig.disttgl(devices / k, k, true),
                workers));
      }
    }
    if (groups.contains(RowGroup.DEPBLOOM)) {
      addProfiledRows(c, "depbloom", devices, workers, false);
    }
    if (groups.contains(RowGroup.PREFILL)) {
      addProfiledRows(c, "depbloom prefill", devices, workers, true);
    }
    if (groups.contains(RowGroup.ABLATIONS)) {
      c.add(
          new RowRun.Candidate(
              "depbloom partitioning only",
              ScheduleConfig.depbloom(1, 0, null, devices, 1, false, false, true),
              workers));
      c.add(
          new RowRun.Candidate(
              "depbloom refinement only",
              ScheduleConfig.depbloom(
                  1, 0, PartitionerKind.CONTIGUOUS, 1, devices, true, false, true),
              workers));
      c.add(
          new RowRun.Candidate(
              "depbloom no critical path", profiled(devices, 1, true, false), workers));
    }
    return c;
  }

  /** The projection-check rows at G = {@code devices}, one worker per device. */
  static List<RowRun.Candidate> checks(int devices) {
    return List.of(
        new RowRun.Candidate(
            "check disttgl i=" + devices, ScheduleConfig.disttgl(devices, 1, true), devices),
        new RowRun.Candidate("check depbloom", profiled(devices, 1, true, true), devices));
  }

  /**
   * The rows {@code label} (the profile's choice on all G devices) and {@code label M=m} for M = 2,
   * 4, ... dividing G, up to G / 2 (memory groups, one per machine, as DistTGL's k: every event
   * trained M times per epoch), with window-start prefill or without.
   */
  private static void addProfiledRows(
      List<RowRun.Candidate> c, String label, int devices, int workers, boolean prefill) {
    c.add(
        new RowRun.Candidate(
            label, profiled(devices, 1, true, true).withPrefill(prefill), workers));
    for (int m = 2; m <= devices / 2; m *= 2) {
      if (devices % m == 0) {
        c.add(
            new RowRun.Candidate(
                label + " M=" + m, profiled(devices, m, true, true).withPrefill(prefill), workers));
      }
    }
  }

  /** A depbloom config in {@code groups} memory groups, the profile choosing inside each. */
  private static ScheduleConfig.DepBloom profiled(
      int devices, int groups, boolean refine, boolean criticalPath) {
    return ScheduleConfig.DepBloom.unresolved(
        devices, groups, new ScheduleConfig.DepBloom.Techniques(refine, criticalPath, false), true);
  }
}
