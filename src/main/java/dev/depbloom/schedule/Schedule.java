package dev.depbloom.schedule;

import dev.depbloom.data.InputException;
import dev.depbloom.observe.MemoryPlacement;
import java.util.ArrayList;
import java.util.List;

/**
 * How training is spread over {@link #devices()} logical devices (docs/schedules.md): the rounds of
 * an epoch, each with one work item per busy device, and which memory view each item reads. A
 * schedule's semantics depend only on its parameters and the device count, never on how many
 * workers execute it.
 */
public interface Schedule {
  /** Logical devices G. */
  int devices();

  /** Memory views (separate memory copies) the schedule trains with. */
  int memoryViews();

  /** The training rounds of epoch {@code epoch} (1-based). */
  List<RoundPlan> plan(int epoch);

  /**
   * The rounds of an epoch's plan where a walk over the stream may begin (every view holding merged
   * memory there): where {@code MemoryGroupsSchedule} starts its groups. Every round by default.
   */
  default List<Integer> walkStarts(int epoch) {
    List<Integer> all = new ArrayList<>();
    for (int r = 0; r < plan(epoch).size(); r++) {
      all.add(r);
    }
    return all;
  }

  /**
   * How the items of one view in a round read each other's writes: {@link Refinement#NONE}, or
   * DepBloom's intra-batch memory refinement.
   */
  default Refinement refinement() {
    return Refinement.NONE;
  }

  /**
   * What the schedule's prefills and merges do ({@link RoundPlan#prefills()}, {@link
   * RoundPlan#merges()}): nothing by default, which plans neither; DepBloom's window edges.
   */
  default WindowMemory windowMemory() {
    return WindowMemory.NONE;
  }

  /**
   * Where this schedule keeps node memory on real GPUs (a projection's traffic): on the devices by
   * default (TGL on one GPU; DepBloom's views stay on their devices for a window).
   */
  default MemoryPlacement memoryPlacement() {
    return MemoryPlacement.DEVICE;
  }

  /**
   * A new commit policy for this schedule's rounds (its owner closes it): everything at the round's
   * end by default.
   */
  default CommitPolicy commitPolicy() {
    return new LastWinsCommit();
  }

  /**
   * The rank, of {@code worldSize} processes, that runs logical device {@code device}: {@code
   * device mod worldSize} unless items of one round depend on each other.
   */
  default int rankOf(int device, int worldSize) {
    return device % worldSize;
  }

  /**
   * A new exchange of memory between processes for this schedule's rounds: every round's writes by
   * default. Where each view is read and written between two merges ({@link
   * RoundPlan#mergeViews()}) by the devices of one rank only (under {@link #rankOf}), the other
   * ranks need its rows only for the merge.
   */
  default WriteExchange writeExchange() {
    return new EveryRoundExchange();
  }

  /**
   * Checks that {@code worldSize} processes can share this schedule's devices evenly.
   *
   * @throws InputException naming the mismatch
   */
  default void checkWorldSize(int worldSize) {
    if (devices() % worldSize != 0) {
      throw new InputException(
          "WORLD_SIZE="
              + worldSize
              + ": "
              + worldSize
              + " processes cannot share the "
              + devices()
              + " logical device(s) of "
              + describe()
              + " evenly; choose --devices G with G a multiple of the process count");
    }
  }

  /** A one-line description, e.g. {@code disttgl(i=4, k=2)}. */
  String describe();
}
