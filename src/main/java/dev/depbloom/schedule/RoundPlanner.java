package dev.depbloom.schedule;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.device.Collective;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.LargeBatch;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.ReadThrough;
import dev.depbloom.step.StageClock;
import dev.depbloom.step.TrainingSession;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The sample stage of a round, on the coordinating thread, in device order: for each item this
 * process runs, its negatives are drawn and its neighborhood sampled into a {@link
 * DeviceStep.Task}; refined items are linked with the earlier micro-batches they read through
 * ({@link Refinement}); with more workers than devices, an unrefined item is split into {@code
 * floor(W / G)} contiguous event shards. A round may be planned ahead, while the previous one
 * trains ({@link #prefetch}): sampling depends only on the stream, so its plan is the same.
 *
 * <p>Randomness is keyed by logical identities only: an item's negatives, neighbor samples and
 * dropout masks come from streams keyed by (seed, epoch, first event of the item, memory view);
 * view 0 adds no view key, so one memory group draws exactly what {@code sequential} draws for the
 * same batch. Shards extend their item's streams by the shard index.
 */
final class RoundPlanner {
  private static final long TRAIN = RandomStreams.key("train");
  private static final long DROPOUT = RandomStreams.key("dropout");
  private static final long COPY = RandomStreams.key("epoch-parallel copy");

  private final TrainingSession session;
  private final Schedule schedule;
  private final Refinement refinement;
  private final int workers; // of this process
  private final Collective collective;
  private final RoundEvents events;
  private PlannedRound prefetched; // the next round, planned while the current one trained
  private long lastSampleNanos; // of the item planned last

  RoundPlanner(
      TrainingSession session,
      Schedule schedule,
      int workers,
      Collective collective,
      RoundEvents events) {
    this.session = session;
    this.schedule = schedule;
    this.refinement = schedule.refinement();
    this.workers = workers;
    this.collective = collective;
    this.events = events;
  }

  /** The tasks of a round: planned while the previous round trained, or now. */
  PlannedRound planned(RoundPlan round, int epoch) {
    PlannedRound p = prefetched;
    prefetched = null;
    if (p != null && p.round() == round && p.epoch() == epoch) {
      return p;
    }
    return plan(round, epoch);
  }

  /** Plans {@code next} ahead, for the round after the one in flight. */
  void prefetch(RoundPlan next, int epoch) {
    prefetched = plan(next, epoch);
  }

  /** The round planned ahead, or null. */
  PlannedRound prefetched() {
    return prefetched;
  }

  private PlannedRound plan(RoundPlan round, int epoch) {
    List<DeviceStep.Task> tasks = new ArrayList<>();
    List<StageClock> clocks = new ArrayList<>();
    List<Long> sampleNanos = new ArrayList<>();
    Function<ItemPlan, ReadThrough> links =
        session.memory().isNone() ? Refinement.NONE.links(round) : refinement.links(round);
    for (ItemPlan item : round.items()) {
      if (schedule.rankOf(item.device(), collective.worldSize()) != collective.rank()) {
        continue;
      }
      plan(item, round, epoch, links.apply(item), tasks, clocks);
      while (sampleNanos.size() < tasks.size()) {
        sampleNanos.add(sampleNanos.size() < tasks.size() - 1 ? 0L : lastSampleNanos);
      }
    }
    return new PlannedRound(round, epoch, tasks, clocks, sampleNanos);
  }

  /** Draws and plans one item (or its shards) on the coordinating thread. */
  private void plan(
      ItemPlan item,
      RoundPlan round,
      int epoch,
      ReadThrough link,
      List<DeviceStep.Task> tasks,
      List<StageClock> clocks) {
    long sampleStart = System.nanoTime();
    if (item.largeBatch()) {
      tasks.add(largeBatch(item, round, epoch, link));
      clocks.add(events.clock());
    } else {
      planShards(item, round, epoch, link, tasks, clocks);
    }
    long took = System.nanoTime() - sampleStart;
    lastSampleNanos = took;
    events.emit(new RoundEvent.Sampled(round.index(), item.device(), sampleStart, took));
  }

  /** The streams of a batch that starts at event {@code start} of view {@code view}. */
  private static long[] keys(int epoch, int start, int view) {
    return view == 0 ? new long[] {TRAIN, epoch, start} : new long[] {TRAIN, epoch, start, view};
  }

  /** The streams of an item: its batch's, extended by its epoch-parallel copy after the first. */
  private static long[] keys(int epoch, ItemPlan item) {
    long[] k = keys(epoch, item.start(), item.view());
    if (item.copy() == 0) {
      return k;
    }
    long[] out = Arrays.copyOf(k, k.length + 2);
    out[k.length] = COPY;
    out[k.length + 1] = item.copy();
    return out;
  }

  /**
   * A large batch's task: each micro-batch drawn and sampled with the streams it would have as an
   * item of its own (so its negatives, neighbours and memory write are those of batch size B), then
   * their plans concatenated for the one training pass; dropout from the first one's streams.
   */
  private DeviceStep.Task largeBatch(ItemPlan item, RoundPlan round, int epoch, ReadThrough link) {
    List<BatchGraph> parts = new ArrayList<>();
    for (int[] events : item.microBatches()) {
      long[] keys = keys(epoch, events[0], item.view());
      long stream = RandomStreams.derive(session.spec().seed(), keys);
      Batch batch = session.batch(round.index(), events, 1, keys);
      parts.add(session.planner().plan(batch, stream, session.sampler(item.view())));
    }
    long stream =
        RandomStreams.derive(session.spec().seed(), keys(epoch, item.start(), item.view()));
    return new DeviceStep.Task(
        item.device(),
        item.view(),
        round.index(),
        LargeBatch.of(parts),
        (double) item.size() / round.events(),
        RandomStreams.derive(stream, DROPOUT, 0),
        0,
        link,
        parts);
  }

  /** An item of one batch: its shards' tasks (one shard when refined). */
  private void planShards(
      ItemPlan item,
      RoundPlan round,
      int epoch,
      ReadThrough link,
      List<DeviceStep.Task> tasks,
      List<StageClock> clocks) {
    long[] keys = keys(epoch, item);
    long stream = RandomStreams.derive(session.spec().seed(), keys);
    Batch batch = session.batch(round.index(), item.events(), 1, keys);
    int shards =
        link != ReadThrough.NONE
            ? 1
            : Math.min(
                Math.max(1, workers * collective.worldSize() / schedule.devices()), batch.size());
    int b = batch.size();
    for (int s = 0; s < shards; s++) {
      Batch part = shards == 1 ? batch : batch.slice(s * b / shards, (s + 1) * b / shards);
      long partStream = shards == 1 ? stream : RandomStreams.extend(stream, s);
      BatchGraph graph = session.planner().plan(part, partStream, session.sampler(item.view()));
      tasks.add(
          new DeviceStep.Task(
              item.device(),
              item.view(),
              round.index(),
              graph,
              (double) part.size() / round.events(),
              RandomStreams.derive(stream, DROPOUT, s),
              s,
              link,
              List.of(),
              item.copy() == 0));
      clocks.add(events.clock());
    }
  }
}
