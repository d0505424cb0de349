package dev.depbloom.schedule.disttgl;

import dev.depbloom.batch.BatchPlan;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.MemoryGroupStagger;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * DistTGL's parallelism (Zhou et al., VLDB 2024; amazon-science/disttgl {@code train.py}) over
 * {@code G = i * j * k} logical devices.
 *
 * <p><b>Mini-batch parallelism i.</b> The training events are cut into batches of {@code B}; a
 * round gives {@code i} consecutive batches (a <em>chunk</em>, {@code i * B} events) to the {@code
 * i} devices of a memory group. They all read the group's memory as of the previous round; their
 * writes merge last-wins at the round's end.
 *
 * <p><b>Epoch parallelism j.</b> Each batch of a round is trained at once by {@code j} copies on
 * {@code j} devices, as if by {@code j} epochs: each copy draws its own negatives and neighbours,
 * all read the same memory, and only copy 0 writes it; one optimizer step takes all their
 * gradients. One epoch thus trains every event {@code j} times per wrap while the memory walks the
 * events once (DistTGL's {@code j} trainers of a group, each on its own negative set; DistTGL
 * pipelines a batch's {@code j} passes over {@code j} consecutive steps, each step's trainers on
 * {@code j} different batches, with memory prefetched up to {@code j} batches earlier; here a
 * batch's copies share one round and read the memory of the round before: as many steps and events
 * per step, memory at least as fresh). Batch {@code m} of group {@code g}'s chunk runs on devices
 * {@code (g * i + m) * j .. + j - 1}.
 *
 * <p><b>Memory parallelism k.</b> {@code k} groups each keep their own memory copy (view {@code g})
 * and walk all {@code R} chunks of the epoch: group {@code g} starts at chunk {@code floor(g * R /
 * k)} ({@link MemoryGroupStagger}) and wraps around, its memory reset when it comes back to chunk 0
 * — so one epoch trains on every event {@code k} times, once per group. As in DistTGL, a group's
 * memory carries over from one epoch to the next (the wrap, not the epoch, resets it); group 0
 * starts each epoch at chunk 0, ends on the latest training events, and its memory is what
 * validation continues. Group {@code g} holds devices {@code g * i * j .. (g + 1) * i * j - 1}.
 * Rounds never mix a group's chunks from before and after its wrap: a chunk is the unit, so the
 * last chunk may hold fewer than {@code i} batches and leave devices idle for that round.
 */
public final class DistTglSchedule implements Schedule {
  private final int trainEvents;
  private final int batchSize;
  private final int minibatchParallelism;
  private final int epochParallelism;
  private final int memoryParallelism;
  private final MemoryGroupStagger stagger;

  public DistTglSchedule(
      int trainEvents, int batchSize, int minibatchParallelism, int memoryParallelism) {
    this(trainEvents, batchSize, minibatchParallelism, 1, memoryParallelism);
  }

  public DistTglSchedule(
      int trainEvents,
      int batchSize,
      int minibatchParallelism,
      int epochParallelism,
      int memoryParallelism) {
    if (minibatchParallelism < 1 || epochParallelism < 1 || memoryParallelism < 1) {
      throw new IllegalArgumentException(
          "disttgl needs i, j, k >= 1: "
              + minibatchParallelism
              + ", "
              + epochParallelism
              + ", "
              + memoryParallelism);
    }
    this.trainEvents = trainEvents;
    this.batchSize = batchSize;
    this.minibatchParallelism = minibatchParallelism;
    this.epochParallelism = epochParallelism;
    this.memoryParallelism = memoryParallelism;
    this.stagger = new MemoryGroupStagger(memoryParallelism);
  }

  @Override
  public int devices() {
    return minibatchParallelism * epochParallelism * memoryParallelism;
  }

  @Override
  public int memoryViews() {
    return memoryParallelism;
  }

  @Override
  public List<RoundPlan> plan(int epoch) {
    List<int[]> batches = BatchPlan.bounds(0, trainEvents, batchSize);
    int i = minibatchParallelism;
    int chunks = (batches.size() + i - 1) / i;
    List<RoundPlan> rounds = new ArrayList<>(chunks);
    for (int r = 0; r < chunks; r++) {
      List<ItemPlan> items = new ArrayList<>();
      List<Integer> resets = new ArrayList<>();
      for (int g = 0; g < memoryParallelism; g++) {
        int chunk = (r + stagger.start(g, chunks)) % chunks;
        if (chunk == 0) {
          resets.add(g);
        }
        for (int m = 0; m < i; m++) {
          int b = chunk * i + m;
          if (b < batches.size()) {
            int[] e = batches.get(b);
            int first = (g * i + m) * epochParallelism; // the batch's copies' devices
            ItemPlan item = ItemPlan.range(first, g, e[0], e[1]);
            for (int c = 0; c < epochParallelism; c++) {
              items.add(item.asCopy(first + c, c));
            }
          }
        }
      }
      rounds.add(new RoundPlan(r, items, resets));
    }
    return rounds;
  }

  /**
   * In host shared memory, one daemon per memory group (amazon-science/disttgl {@code
   * mailbox_daemon.py}): the daemon applies the group's writes and serves its trainers' reads.
   */
  @Override
  public MemoryPlacement memoryPlacement() {
    return MemoryPlacement.HOST_DAEMON;
  }

  @Override
  public String describe() {
    return "disttgl(i="
        + minibatchParallelism
        + (epochParallelism > 1 ? ", j=" + epochParallelism : "")
        + ", k="
        + memoryParallelism
        + ", B="
        + batchSize
        + ")";
  }
}
