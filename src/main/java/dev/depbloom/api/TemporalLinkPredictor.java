package dev.depbloom.api;

import dev.depbloom.batch.Batch;
import dev.depbloom.eval.Evaluator;
import dev.depbloom.eval.EventSliceScorer;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.step.BatchScores;
import dev.depbloom.step.MemoryWriteSink;
import dev.depbloom.step.ScoredMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A trained temporal link predictor, served: it keeps the model's memory current as events arrive
 * and answers link probabilities from it.
 *
 * <p><b>One mechanism with the test.</b> Observing a batch of events runs the test protocol's code
 * ({@link EventSliceScorer}, the device step, the planner, the memory store): the events join the
 * neighbor index, the nodes they touch get their deferred memory update from the mails earlier
 * batches left, and the batch writes memory and mails (TGL's semantics). {@link #observe} writes as
 * TGL's replay does; {@link #scoreThenObserve} first scores the events (and candidates) on the
 * memory before them, exactly as the continued test protocol scores a test batch, then writes. A
 * predictor loaded from a run continues that run's continued protocol: observing its test events in
 * its test batches gives its test scores. Calls of more than the run's batch size {@code B} are
 * applied as consecutive batches of {@code B}.
 *
 * <p><b>Ids and time.</b> Node ids and times are the run's data's own. Ids lie in {@code [0,
 * idBound())}; an unknown id in an observed event becomes a new node (dense ids after the data's,
 * fresh memory, as a node unseen in training is in the test), up to {@link
 * PredictorOptions#maxNewNodes()}; beyond it the call is refused. An unknown id in a score or rank
 * reads as such a fresh node without being added. Events must arrive in time order: one before the
 * newest observed event is refused (events at the same time are fine), and so is one more than
 * {@link #timeHorizon()} after it ({@link AdmissionRules}). Queries obey the same rule: not before
 * the newest observed event (the memory has seen it), not beyond the horizon.
 *
 * <p><b>Durability.</b> With a journal ({@link PredictorOptions#journal()}) every batch is written
 * and forced to disk before it is published, and a load replays the journal after the snapshot, so
 * that nothing an observe returned is lost to a crash ({@link EventJournal}).
 *
 * <p><b>Thread safety.</b> All methods may be called from any thread. Observing, snapshots and
 * restores run one at a time (a writer lock). Scores and ranks run concurrently with each other and
 * with an observe: each reads one version of the state — the memory, mailbox, neighbor index, node
 * ids and version number after a whole number of batches — never part of a batch. Observing
 * computes a batch's memory write without blocking readers; only the application of the write with
 * the batch's index entries, new ids and version increment is exclusive (a read-write lock with a
 * version counter: readers share it, the application holds it alone).
 *
 * <p>Native memory (model, memory, mailbox) is freed by {@link #close()}.
 */
public final class TemporalLinkPredictor implements AutoCloseable {
  /**
   * A query time that reads at the newest observed event's time, taken with the state the query
   * reads (so an observe between a caller's look at {@link #newestTime()} and its query cannot make
   * the query late).
   */
  public static final double NEWEST = Double.NaN;

  private final LoadedRun run;
  private final LinkReader reader;
  private final VersionGuard guard;
  private final PublishHook hook;
  private final Object writerLock = new Object();
  private ServingState state; // replaced only by restore, under the writer lock and the guard
  private boolean closed; // set under the writer lock and the guard
  private EventJournal journal; // null: none; written under the writer lock
  private boolean replaying; // the journal's batches are being applied: not journaled again
  private int replayed; // batches the load applied from the journal
  private final AtomicLong observedEvents = new AtomicLong(); // since load
  private final AtomicLong refusedNodeIds = new AtomicLong(); // calls refused for an id, since load

  private TemporalLinkPredictor(LoadedRun run, VersionGuard guard, PublishHook hook) {
    this.run = run;
    this.reader = new LinkReader(run);
    this.guard = guard;
    this.hook = hook;
  }

  /**
   * The run in {@code runDir} (a folder written by {@code depbloom train}): its best checkpoint's
   * parameters, config and data (node ids, edge features), and the memory its validation left
   * behind over the training and validation events (the continued test protocol's start).
   */
  public static TemporalLinkPredictor load(Path runDir) {
    return load(runDir, PredictorOptions.defaults());
  }

  /** As {@link #load(Path)}, set up by {@code options} (e.g. restored from a snapshot). */
  public static TemporalLinkPredictor load(Path runDir, PredictorOptions options) {
    return load(runDir, options, VersionGuard.readWriteLock(), PublishHook.NONE);
  }

  /** As {@link #load(Path, PredictorOptions)}, with another guard and a publish hook (tests). */
  static TemporalLinkPredictor load(
      Path runDir, PredictorOptions options, VersionGuard guard, PublishHook hook) {
    LoadedRun run = LoadedRun.open(runDir, options);
    TemporalLinkPredictor p = new TemporalLinkPredictor(run, guard, hook);
    try {
      if (options.snapshot() != null) {
        p.state = ServingState.restored(run, options.snapshot());
      } else {
        p.state = options.emptyHistory() ? ServingState.empty(run) : ServingState.continued(run);
      }
      if (options.journal() != null) {
        p.journal = EventJournal.open(options.journal(), run.saved.fingerprint());
        p.replayJournal();
      }
      return p;
    } catch (RuntimeException e) {
      p.release();
      throw e;
    }
  }

  /**
   * Applies the journal's batches that follow the state's version, as they were applied before
   * (observed, or scored then observed: the same writes); those the snapshot holds are skipped.
   */
  private void replayJournal() {
    replaying = true;
    try {
      replayed = journal.replay(state::version, (events, scored) -> apply(events, null, scored));
    } finally {
      replaying = false;
    }
  }

  /**
   * Observes {@code events} (in time order, not before the newest observed event): they join the
   * neighbor index and update memory as the test protocol's replay does. Returns the version after
   * the last batch. Nothing is applied if an event is refused ({@link RejectedInputException}).
   */
  public long observe(List<Interaction> events) {
    return apply(events, null, false).version();
  }

  /**
   * Scores each event, and each of its {@code candidates} (or null: none) as destinations, on the
   * memory before the event's batch, with the batch's earlier events among the neighbors — as the
   * continued test protocol scores a test batch — then observes the events. Every event needs the
   * same number of candidates.
   */
  public EventScores scoreThenObserve(List<Interaction> events, long[][] candidates) {
    return apply(events, candidates, true);
  }

  private EventScores apply(List<Interaction> events, long[][] candidates, boolean score) {
    Objects.requireNonNull(events, "events");
    synchronized (writerLock) {
      ServingState s = open();
      PreparedEvents p;
      try {
        p = PreparedEvents.prepare(events, candidates, s, run);
      } catch (RejectedInputException e) {
        if (e.field().equals("src") || e.field().equals("dst")) { // the id space or the limit
          refusedNodeIds.incrementAndGet();
        }
        throw e;
      }
      int n = p.size();
      float[] positive = new float[n];
      float[][] scores = new float[n][p.k()];
      try {
        for (int from = 0; from < n; from += run.batchSize()) {
          int to = Math.min(n, from + run.batchSize());
          BatchScores b = applyBatch(s, p, from, to, score, events.subList(from, to));
          for (int i = from; b != null && i < to; i++) {
            positive[i] = b.positive()[i - from];
            for (int j = 0; j < p.k(); j++) {
              scores[i][j] = b.negative()[j * (to - from) + i - from];
            }
          }
        }
      } catch (RuntimeException | Error e) {
        s.discardPending();
        throw e;
      }
      return new EventScores(s.version(), positive, scores);
    }
  }

  /** Applies events {@code [from, to)} as one batch: computed, then published under the guard. */
  private BatchScores applyBatch(
      ServingState s,
      PreparedEvents p,
      int from,
      int to,
      boolean score,
      List<Interaction> original) {
    int b = to - from;
    Batch batch = p.append(s, from, to);
    long stream =
        Evaluator.testStream(run.run.seed(), batch.events()[0]); // the test pass's streams
    List<MemoryWrite> writes = new ArrayList<>(1);
    MemoryWriteSink keep = (memory, write) -> writes.add(write);
    try {
      BatchScores out = null;
      List<ScoredMemory> memories = memories(s);
      if (score) {
        out = s.writeScorer.score(batch, stream, s.writer(), memories, keep).get(0);
      } else if (!memories.isEmpty()) {
        s.writeScorer.replay(batch, stream, s.writer(), memories.get(0), keep);
      }
      double newest = p.time()[to - 1];
      long mark =
          journal == null || replaying
              ? -1
              : journal.append(s.version(), score, original, s.events.dim());
      try {
        guard.publish(
            () -> {
              for (MemoryWrite w : writes) {
                s.memory.apply(0, w);
              }
              hook.memoryWritten();
              s.publish(newest);
            });
      } catch (RuntimeException | Error e) {
        if (mark >= 0) {
          journal.cutBack(mark); // never published: its version goes to the next batch
        }
        throw e;
      }
      observedEvents.addAndGet(b);
      return out;
    } finally {
      for (MemoryWrite w : writes) {
        w.close();
      }
    }
  }

  private static List<ScoredMemory> memories(ServingState s) {
    return s.memory.isNone() ? List.of() : List.of(new ScoredMemory(s.memory, 0));
  }

  /** The probability that {@code source} interacts with {@code destination} at {@code time}. */
  public float score(long source, long destination, double time) {
    return score(List.of(new LinkQuery(source, destination, time))).scores()[0];
  }

  /** The probabilities of {@code queries}, all read from one version. */
  public ScoredLinks score(List<LinkQuery> queries) {
    Objects.requireNonNull(queries, "queries");
    if (queries.isEmpty()) {
      throw new RejectedInputException("request", -1, "pairs", "no pairs to score");
    }
    return guard.read(() -> reader.score(open(), queries));
  }

  /**
   * The {@code k} most likely destinations of {@code source} at {@code time} among {@code
   * candidates}, best first, ties in candidate order; all read from one version. Each candidate is
   * scored as the pair {@code (source, candidate)} is by {@link #score(List)}: the same float.
   */
  public Ranking rank(long source, long[] candidates, double time, int k) {
    LinkReader.checkRankRequest(candidates, k);
    return guard.read(() -> reader.rank(open(), source, candidates, time, k));
  }

  /**
   * Writes the state — memory, mailbox, node ids, observed events (the neighbor index is rebuilt
   * from them), version — to {@code file}, atomically; waits for a running observe. Returns the
   * version written.
   */
  public long snapshot(Path file) {
    synchronized (writerLock) {
      ServingState s = open();
      SnapshotFile.write(s, file);
      if (journal != null) {
        journal.clear(); // the snapshot holds every batch the journal had
      }
      return s.version();
    }
  }

  /**
   * Replaces the state with the snapshot in {@code file} (of this run, taken by {@link #snapshot}):
   * what follows continues exactly as it would have after the snapshot was taken.
   */
  public void restore(Path file) {
    synchronized (writerLock) {
      if (journal != null) {
        throw new IllegalStateException(
            "a predictor with a journal restores a snapshot only when it is loaded"
                + " (PredictorOptions.withSnapshot): the journal continues that snapshot");
      }
      ServingState old = open();
      ServingState restored = ServingState.restored(run, file);
      guard.publish(() -> state = restored);
      old.close();
    }
  }

  /** The version readers see: batches observed since load (or restored with a snapshot). */
  public long version() {
    return guard.read(() -> open().version());
  }

  /**
   * Calls refused since load because an event's node id lay outside the id space or would have been
   * a new node beyond {@link #maxNewNodes()}: junk ids show here before they show as refused real
   * nodes.
   */
  public long refusedNodeIds() {
    return refusedNodeIds.get();
  }

  /** Batches the load applied from the journal, after the snapshot (0 without a journal). */
  public int replayedBatches() {
    return replayed;
  }

  /** Events observed through this predictor since it was loaded (the journal's included). */
  public long observedEvents() {
    return observedEvents.get();
  }

  /** The newest observed event's time, in the data's unit (negative infinity before any). */
  public double newestTime() {
    return guard.read(() -> open().newestTime() + run.timeOrigin());
  }

  /** Nodes known: the run's data's and those observed events added. */
  public int nodeCount() {
    return guard.read(() -> open().ids.baseCount() + open().ids.addedCount());
  }

  /** Nodes observed events added, at most {@link #maxNewNodes()}. */
  public int newNodeCount() {
    return guard.read(() -> open().ids.addedCount());
  }

  /**
   * How far beyond the newest observed event, in the data's time unit, an event or a query may lie
   * ({@link PredictorOptions#timeHorizon()}; by default the training span).
   */
  public double timeHorizon() {
    return run.timeHorizon;
  }

  /** Node ids lie in {@code [0, idBound())} ({@link PredictorOptions#idBound()}). */
  public long idBound() {
    return run.idBound;
  }

  public int maxNewNodes() {
    return run.maxNewNodes;
  }

  /** Width of the edge features an observed event may carry (0: none). */
  public int edgeFeatureDim() {
    return run.run.events().edgeFeatures().dim();
  }

  /** Events a batch holds at most: the run's batch size. */
  public int batchSize() {
    return run.batchSize();
  }

  /** The model's name ({@code tgn}, {@code jodie}, ...). */
  public String modelName() {
    return run.config.name();
  }

  /** The state, or an error once closed; call under the writer lock or the guard. */
  private ServingState open() {
    if (closed) {
      throw new IllegalStateException("the predictor is closed");
    }
    return state;
  }

  /** Frees the native memory, once running calls have finished; later calls fail. */
  @Override
  public void close() {
    synchronized (writerLock) {
      if (closed) {
        return;
      }
      guard.publish(() -> closed = true);
      release();
    }
  }

  /** Closes the state, the run and the journal, those that were opened. */
  private void release() {
    if (state != null) {
      state.close();
    }
    run.close();
    if (journal != null) {
      journal.close();
    }
  }
}
