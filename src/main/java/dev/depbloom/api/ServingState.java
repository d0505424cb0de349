package dev.depbloom.api;

import dev.depbloom.data.InputException;
import dev.depbloom.data.StreamFeatures;
import dev.depbloom.eval.EventSliceScorer;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.sampling.LiveNeighborIndex;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.sampling.NeighborSamplerFactory;
import dev.depbloom.step.DeviceStep;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Everything a served stream changes as events arrive: memory and mailbox (one view of {@link
 * NodeIds#capacity()} rows), the neighbor index, the events with their features, the node ids, and
 * the version (batches observed since load) with the newest event's time. What a batch appends is
 * pending until {@link #publish}, which the predictor calls under its write lock together with the
 * batch's memory write: a reader sees a whole batch or none of it.
 *
 * <p>Two samplers read the index: the writer's, with time cursors, over the pending rows (a batch
 * samples its own earlier events, as the test pass's CSR shows them); the readers', without cursors
 * (calls may overlap), over the published rows.
 */
final class ServingState implements AutoCloseable {
  final LoadedRun run;
  final MemoryStore memory; // [capacity] rows, one view; none for models without memory
  final ServedEvents events;
  final NodeIds ids;
  final DeviceStep step;
  final EventSliceScorer writeScorer; // the test pass's scorer, on the run's workers
  private final LiveNeighborIndex index; // null for models that read no neighbors
  private final NeighborSampler writer; // over the pending rows, or null
  private final NeighborSampler reader; // over the published rows, reentrant, or null
  private long version;
  private double newestTime; // run time of the newest published event; -inf before any

  /**
   * A state over the first {@code historyEvents} events of the run's data, with {@code memory}
   * (which it owns) as their memory; {@code newestTime} is the newest of them.
   */
  ServingState(LoadedRun run, MemoryStore memory, int historyEvents, double newestTime) {
    this.run = run;
    this.memory = memory;
    this.ids = new NodeIds(run.run.events().nodeIds(), run.maxNewNodes);
    this.events = new ServedEvents(run.run.events().edgeFeatures(), historyEvents);
    this.index =
        run.sampling == null
            ? null
            : LiveNeighborIndex.of(run.run.events(), historyEvents, ids.capacity());
    this.writer =
        index == null ? null : NeighborSamplerFactory.create(run.sampling, index.pending());
    this.reader =
        index == null
            ? null
            : NeighborSamplerFactory.createReentrant(run.sampling, index.published());
    StreamFeatures features =
        new StreamFeatures(
            events, new PaddedFeatureMatrix(run.run.events().nodeFeatures(), ids.capacity()));
    this.step = new DeviceStep(run.replica, features);
    this.writeScorer = new EventSliceScorer(step, run.planner, run.config, run.workers);
    this.newestTime = newestTime;
  }

  /** The continued protocol's start: the checkpoint's memory over training and validation. */
  static ServingState continued(LoadedRun run) {
    int history = run.historyEvents();
    MemoryStore memory =
        run.hasMemory() ? run.checkpointMemory(run.capacity()) : MemoryStore.none();
    double newest = history == 0 ? Double.NEGATIVE_INFINITY : run.run.events().times()[history - 1];
    return new ServingState(run, memory, history, newest);
  }

  /** Zero memory and no events (TGL's protocol replays the history into such a state). */
  static ServingState empty(LoadedRun run) {
    return new ServingState(run, run.freshMemory(), 0, Double.NEGATIVE_INFINITY);
  }

  /**
   * The state a snapshot of {@code file} holds, for {@code run}; a snapshot of another run, or with
   * more new nodes than {@code run} allows, is an input error naming the file.
   */
  static ServingState restored(LoadedRun run, Path file) {
    SnapshotFile.Contents c = SnapshotFile.read(file);
    String mine = run.saved.fingerprint() + ", epoch " + run.bestEpoch + ", " + run.config.name();
    String theirs = c.fingerprint() + ", epoch " + c.bestEpoch() + ", " + c.model();
    if (!mine.equals(theirs)
        || c.nodes() != run.nodeCount()
        || c.edgeDim() != run.run.events().edgeFeatures().dim()
        || (c.historyEvents() != 0 && c.historyEvents() != run.historyEvents())
        || (c.memory() == null) == run.hasMemory()) {
      throw new InputException(
          file + ": a snapshot of another run (" + theirs + "), not of this one (" + mine + ")");
    }
    if (c.addedIds().length > run.maxNewNodes) {
      throw new InputException(
          file
              + ": the snapshot holds "
              + c.addedIds().length
              + " new nodes, more than the "
              + run.maxNewNodes
              + " allowed (--max-new-nodes)");
    }
    String illegal = illegalState(c);
    if (illegal != null) {
      throw new InputException(
          file
              + ": the snapshot holds a state no admitted request can produce ("
              + illegal
              + "); start with --fresh to discard it");
    }
    int history = c.historyEvents();
    MemoryStore memory = run.freshMemory();
    double newest = history == 0 ? Double.NEGATIVE_INFINITY : run.run.events().times()[history - 1];
    ServingState s = new ServingState(run, memory, history, newest);
    try {
      s.replay(c);
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * What makes a snapshot's state one that no admitted request could have produced (a time that is
   * not finite, memory that is not), or null; snapshots from before the time rule can hold one.
   */
  private static String illegalState(SnapshotFile.Contents c) {
    boolean events = c.src().length > 0 || c.historyEvents() > 0;
    if (events && !Double.isFinite(c.newestTime())) {
      return "newest event time " + c.newestTime();
    }
    for (double t : c.time()) {
      if (!Double.isFinite(t)) {
        return "an event at time " + t;
      }
    }
    SnapshotFile.MemoryRows m = c.memory();
    if (m != null) {
      for (float x : m.memory()) {
        if (!Float.isFinite(x)) {
          return "memory value " + x;
        }
      }
      for (float x : m.mailbox()) {
        if (!Float.isFinite(x)) {
          return "mailbox value " + x;
        }
      }
    }
    return null;
  }

  /** Adds a snapshot's node ids, events and memory to this fresh state. */
  private void replay(SnapshotFile.Contents c) {
    for (long id : c.addedIds()) {
      ids.denseOrAdd(id);
    }
    int dim = c.edgeDim();
    for (int i = 0; i < c.src().length; i++) {
      float[] f = dim == 0 ? null : Arrays.copyOfRange(c.features(), i * dim, (i + 1) * dim);
      append(c.src()[i], c.dst()[i], c.time()[i], f);
    }
    publish(c.newestTime());
    resume(c.version(), c.newestTime());
    SnapshotFile.MemoryRows m = c.memory();
    if (m != null) {
      NodeMemory view = memory.view(0);
      view.restoreValues(m.rows(), m.memory(), m.mailbox());
      int capacity = view.nodeCount();
      int slots = view.mailboxSize();
      view.restoreTimes(
          Arrays.copyOf(m.lastUpdate(), capacity),
          Arrays.copyOf(m.mailTimes(), capacity * slots),
          Arrays.copyOf(m.nextSlots(), capacity));
    }
  }

  /** The sampler of a batch being applied, or null for models that read no neighbors. */
  NeighborSampler writer() {
    return writer;
  }

  /** The sampler of scores, or null for models that read no neighbors. */
  NeighborSampler reader() {
    return reader;
  }

  long version() {
    return version;
  }

  /** The run time of the newest observed event (negative infinity before any). */
  double newestTime() {
    return newestTime;
  }

  /** Appends an event (pending) to the events and the index; returns its edge id. */
  int append(int source, int destination, double runTime, float[] features) {
    int edge = events.append(source, destination, runTime, features);
    if (index != null) {
      index.append(source, destination, runTime, edge);
    }
    return edge;
  }

  /**
   * Publishes what was appended since the last publish as version {@code version + 1}, its newest
   * event at {@code newest}. Call under the write lock, after the batch's memory write.
   */
  void publish(double newest) {
    if (index != null) {
      index.publish();
    }
    events.publish();
    ids.publish();
    newestTime = newest;
    version++;
  }

  /** Drops what was appended since the last publish; the writer's cursors start over. */
  void discardPending() {
    if (index != null) {
      index.discardPending();
      writer.reset();
    }
    events.discardPending();
    ids.discardPending();
  }

  /** Restores the version counter and newest time of a snapshot. */
  private void resume(long snapshotVersion, double snapshotNewest) {
    this.version = snapshotVersion;
    this.newestTime = snapshotNewest;
  }

  @Override
  public void close() {
    writeScorer.close();
    if (writer != null) {
      writer.close();
      reader.close();
    }
    memory.close();
  }
}
