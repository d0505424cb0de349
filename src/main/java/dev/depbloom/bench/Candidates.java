package dev.depbloom.bench;

import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.depbloom.DepBloomConfig;
import dev.depbloom.schedule.disttgl.DistTglConfig;
import dev.depbloom.schedule.sequential.SequentialConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rows a comparison trains at G devices (issue 34: every {@code disttgl} split by default, and
 * the rows that separate DepBloom's techniques from memory groups and prefill):
 *
 * <ul>
 *   <li>{@code sequential} (TGL), which sets the target;
 *   <li>{@code disttgl} at every (i, j, k) split of G, {@code i = 1, j = G} (DistTGL's default on
 *       one machine) and {@code i = 1, k = G} included;
 *   <li>{@code depbloom}: G / M chains in M = 1, 2, 4, ... memory groups, each chain's large batch
 *       of k micro-batches on its device (k = 1 and 4 by default), the profile choosing window and
 *       partitioner, without prefill;
 *   <li>{@code depbloom prefill}: the same rows with window-start prefill (our addition), so that
 *       {@code depbloom prefill M=m} against {@code depbloom M=m} is prefill's share and {@code
 *       depbloom M=m} against {@code disttgl i=G/m k=m} the share of partitioning in windows;
 *   <li>{@code ablations}: partitioning only, refinement only (one chain spread over G devices), no
 *       critical path.
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
   * The rows at G devices on {@code workers} workers, batch size {@code batchSize} (named in the
   * labels); {@code disttglK} limits the disttgl rows to those memory-group counts k (empty: every
   * divisor of G); {@code depbloomK} are the micro-batch counts of the depbloom rows.
   */
  public static List<RowRun.Candidate> of(
      int devices,
      int workers,
      Set<RowGroup> groups,
      Set<Integer> disttglK,
      Set<Integer> depbloomK,
      int batchSize) {
    List<RowRun.Candidate> c = new ArrayList<>();
    c.add(new RowRun.Candidate("sequential", SequentialConfig.DEFAULT, workers));
    if (groups.contains(RowGroup.DISTTGL)) {
      addDistTglRows(c, devices, workers, disttglK, batchSize);
    }
    if (groups.contains(RowGroup.DEPBLOOM)) {
      addProfiledRows(c, "depbloom", devices, workers, false, depbloomK, batchSize);
    }
    if (groups.contains(RowGroup.PREFILL)) {
      addProfiledRows(c, "depbloom prefill", devices, workers, true, depbloomK, batchSize);
    }
    if (groups.contains(RowGroup.ABLATIONS)) {
      c.add(
          new RowRun.Candidate(
              "depbloom partitioning only",
              DepBloomConfig.of(1, 0, null, devices, 1, false, false, true),
              workers));
      c.add(
          new RowRun.Candidate(
              "depbloom refinement only (spread)",
              DepBloomConfig.of(1, 0, PartitionerKind.CONTIGUOUS, 1, devices, true, false, true)
                  .withPlacement(DepBloomConfig.Placement.SPREAD),
              workers));
      c.add(
          new RowRun.Candidate(
              "depbloom no critical path", profiled(devices, 1, 1, true, false), workers));
    }
    return c;
  }

  /** The labels' batch-size part: {@code B=600}. */
  private static String batch(int batchSize) {
    return "B=" + batchSize;
  }

  /**
   * DistTGL at every {@code (i, j, k)} with {@code i * j * k = G} (k in {@code disttglK} when it is
   * not empty), ordered by k, then j.
   */
  private static void addDistTglRows(
      List<RowRun.Candidate> c, int devices, int workers, Set<Integer> disttglK, int batchSize) {
    for (int k = 1; k <= devices; k++) {
      if (devices % k != 0 || (!disttglK.isEmpty() && !disttglK.contains(k))) {
        continue;
      }
      for (int j = 1; j <= devices / k; j++) {
        if ((devices / k) % j != 0) {
          continue;
        }
        int i = devices / k / j;
        c.add(
            new RowRun.Candidate(
                "disttgl i=" + i + " j=" + j + " k=" + k + " " + batch(batchSize),
                DistTglConfig.of(i, j, k, true),
                workers));
      }
    }
  }

  /** The projection-check rows at G = {@code devices}, one worker per device. */
  static List<RowRun.Candidate> checks(int devices) {
    return List.of(
        new RowRun.Candidate(
            "check disttgl i=" + devices, DistTglConfig.of(devices, 1, true), devices),
        new RowRun.Candidate("check depbloom", profiled(devices, 1, 1, true, true), devices));
  }

  /**
   * The rows {@code label P=G/M k=K B=.. M=m} for M = 1, 2, 4, ... dividing G (memory groups, one
   * per machine, as DistTGL's k: every event trained M times per epoch; M = G, one chain a group,
   * only with K > 1 and without prefill: with K = 1 it is {@code disttgl i=1 j=1 k=G} but for the
   * groups' starts), and K in {@code depbloomK}: each chain's large batch of K micro-batches on its
   * device (the local placement), the profile choosing window and partitioner inside each group;
   * with window-start prefill or without.
   */
  private static void addProfiledRows(
      List<RowRun.Candidate> c,
      String label,
      int devices,
      int workers,
      boolean prefill,
      Set<Integer> depbloomK,
      int batchSize) {
    for (int m = 1; m <= devices; m *= 2) {
      if (devices % m != 0) {
        continue;
      }
      for (int k : new java.util.TreeSet<>(depbloomK)) {
        if (m == devices && m > 1 && (k == 1 || prefill)) {
          // one chain a group: at k = 1 it is disttgl i=1 j=1 k=G but for the groups' starts (at
          // window starts), and prefill has no other chain to replay
          continue;
        }
        c.add(
            new RowRun.Candidate(
                label + " P=" + devices / m + " k=" + k + " " + batch(batchSize) + " M=" + m,
                profiled(devices, m, k, true, true).withPrefill(prefill),
                workers));
      }
    }
  }

  /**
   * A depbloom config of {@code groups} memory groups of {@code G / M} chains, each with large
   * batches of {@code k} micro-batches on its device, the profile choosing window and partitioner.
   */
  private static DepBloomConfig profiled(
      int devices, int groups, int k, boolean refine, boolean criticalPath) {
    return DepBloomConfig.of(groups, 0, null, devices / groups, k, refine, criticalPath, true);
  }
}
