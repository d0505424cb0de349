package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.Refinement;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.step.ReadThrough;
import dev.depbloom.step.TrainingSession;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DepBloom's intra-batch memory refinement (docs/schedules.md, "Intra-batch memory refinement";
 * Zhao et al., arXiv 2610.15730): the items of one view in a round are the {@code k} consecutive
 * micro-batches of a chain's large batch, and micro-batch {@code j} reads through the memory writes
 * of micro-batches {@code 0..j-1} ({@link MicroBatchChain}) — an {@link OverlayMemory} of the rows
 * they touch over the view as of the previous round. The memory updater then meets, for every node
 * seen earlier in the large batch, the mail of its latest such event built from that micro-batch's
 * updated memories (detached): exactly what batch size {@code B} would read. It is not free of
 * synchronisation between devices: the micro-batches' memory updates form a serial chain inside the
 * round (each waits for the previous one's published write, and on real devices for that write to
 * cross the link), which the projections charge on the round's critical path (the wait is {@code
 * sync}, the overlay {@code refine}); embedding, loss and backward run in parallel.
 */
public final class IntraBatchRefinement implements Refinement {
  @Override
  public Function<ItemPlan, ReadThrough> links(RoundPlan round) {
    Map<Integer, MicroBatchChain> chains = new HashMap<>();
    return item ->
        item.largeBatch()
            ? LOCAL
            : new Link(
                chains.computeIfAbsent(item.view(), v -> chain(round, v)),
                microBatchIndex(round, item));
  }

  /**
   * The link of a large batch trained on one device (the local placement): its step makes the
   * micro-batches' writes itself, in order, and micro-batch {@code j} reads through those of {@code
   * 0..j-1}; nothing crosses to another task.
   */
  private static final ReadThrough LOCAL =
      (memory, view, round, earlier) ->
          earlier.isEmpty() ? null : overlayOf(memory, view, round, earlier);

  /** The view as after {@code earlier}, once their rows are readable (the overlay copies them). */
  private static ReadThrough.Overlay overlayOf(
      MemoryStore memory, int view, int round, List<MemoryWrite> earlier) {
    for (MemoryWrite w : earlier) {
      memory.awaitReadable(view, w.memoryNodes(), round);
      memory.awaitReadable(view, w.mailNodes(), round);
    }
    return new OverlayMemory(memory.view(view), earlier);
  }

  private static MicroBatchChain chain(RoundPlan round, int view) {
    int n = 0;
    for (ItemPlan i : round.items()) {
      if (i.view() == view) {
        n++;
      }
    }
    return new MicroBatchChain(view, round.index(), n, TrainingSession.READ_TIMEOUT_MILLIS);
  }

  /** The item's position among the round's items of its view (its micro-batch index). */
  private static int microBatchIndex(RoundPlan round, ItemPlan item) {
    int j = 0;
    for (ItemPlan i : round.items()) {
      if (i == item) {
        return j;
      }
      if (i.view() == item.view()) {
        j++;
      }
    }
    throw new IllegalArgumentException("item not in round " + round.index());
  }

  /** Micro-batch {@code microBatch} of {@code chain}. */
  private record Link(MicroBatchChain chain, int microBatch) implements ReadThrough {
    @Override
    public List<MemoryWrite> awaitEarlier() {
      return microBatch == 0 ? List.of() : chain.awaitEarlier(microBatch);
    }

    /**
     * The view as after the earlier micro-batches' writes, once their rows are readable (the
     * overlay copies them from the view); null for the first micro-batch.
     */
    @Override
    public Overlay overlay(MemoryStore memory, int view, int round, List<MemoryWrite> earlier) {
      return microBatch == 0 ? null : overlayOf(memory, view, round, earlier);
    }

    @Override
    public void publish(MemoryWrite write) {
      chain.publish(microBatch, write);
    }

    @Override
    public void fail(Throwable cause) {
      chain.fail(microBatch, cause);
    }
  }
}
