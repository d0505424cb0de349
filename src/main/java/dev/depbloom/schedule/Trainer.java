package dev.depbloom.schedule;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.data.Split;
import dev.depbloom.device.Collective;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.device.Traffic;
import dev.depbloom.eval.EventSliceScorer;
import dev.depbloom.eval.RankingMetrics;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.eval.TestNegatives;
import dev.depbloom.eval.TestScoreAccumulator;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.step.BatchScores;
import dev.depbloom.step.ScoredMemory;
import dev.depbloom.step.TrainingDivergedException;
import dev.depbloom.step.TrainingRun;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.train.Checkpoint;
import dev.depbloom.train.EpochMetrics;
import dev.depbloom.train.RankMetrics;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.TrainingListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Training under a {@link Schedule}: per epoch, the schedule's rounds (each a fan-out of work items
 * over the logical devices, one optimizer step, a commit), then a validation pass that continues
 * the memory of the schedule's validation view (TGL's protocol); after training, the best epoch's
 * parameters are tested under two protocols: on the memory that epoch's validation left behind
 * (continued), and after a memory reset and a replay of training and validation events (TGL's). A
 * NaN or infinite training loss or score stops the run with a {@link TrainingDivergedException}
 * naming the epoch and the round or batch.
 *
 * <p>Process-wide tensor state is set at phase boundaries only, and every phase (training,
 * validation, the replay and the test) runs with one worker's thread budget, whatever the number of
 * workers: OpenBLAS's products round differently with different thread counts on some CPUs (its
 * Haswell kernels, which AVX2 machines without AVX-512 get), so validation with the BLAS threads of
 * all workers made one process of two workers validate differently from two ranks of one.
 * Parameters are initialised from the seed; every other random draw comes from streams keyed by
 * logical identities (see {@link RoundRunner}), so a run resumed at an epoch boundary continues
 * exactly as an uninterrupted one.
 */
public final class Trainer implements AutoCloseable {
  private static final long VAL = RandomStreams.key("val");
  private static final long TEST = RandomStreams.key("test");
  private static final long REPLAY = RandomStreams.key("replay");

  private final TrainingRun run;
  private final ModelConfig config;
  private final Split split;
  private final TrainingSession session;
  private final RoundRunner runner;
  private final Collective collective;
  private final List<TrainingListener> listeners = new ArrayList<>();
  private int testEventsPerPass; // 0: EventSliceScorer's budget
  private int validationsPerEpoch = 1; // the epoch's end, and checks inside it (ValidationChecks)

  public Trainer(TrainingRun run) {
    this(run, new InProcessCollective());
  }

  /**
   * Training as one process of a multi-process run joined by {@code collective} (which the trainer
   * closes): this process runs the logical devices the schedule places on its rank, every process
   * keeps the same parameters and memory, and only rank 0 writes checkpoints and metrics.
   *
   * @throws dev.depbloom.data.InputException when the collective's processes cannot share the
   *     schedule's devices
   */
  public Trainer(TrainingRun run, Collective collective) {
    this.run = run;
    this.config = run.config();
    this.split = run.split();
    this.collective = collective;
    this.session = new TrainingSession(run);
    Schedule schedule =
        Schedules.of(config.schedule(), run.events(), split, config.train().batchSize());
    try {
      schedule.checkWorldSize(collective.worldSize());
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
    this.runner =
        new RoundRunner(
            session,
            schedule,
            run.threads().workers(),
            collective,
            RoundRunner.commitPolicy(schedule));
  }

  public void addListener(TrainingListener listener) {
    listeners.add(listener);
  }

  /** Receives the measured costs of every training round (null: none). */
  public void observe(RoundObserver observer) {
    runner.observe(observer);
  }

  /** Records every training round's stages into {@code trace} (one track per logical device). */
  public void trace(ChromeTrace trace) {
    runner.trace(trace);
  }

  /**
   * Validates {@code n} times an epoch instead of once: at the epoch's end as always, and {@code n
   * - 1} times inside it, after the rounds {@link ValidationChecks} picks (evenly spread over the
   * training events, where the validation view is whole). A check leaves training untouched: it
   * copies the validation view, replays the epoch's remaining training events into the copy (memory
   * writes only, no scoring, as TGL's test protocol replays), then validates on it. Its time is not
   * training time. One process only.
   */
  public void validationsPerEpoch(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("validations per epoch must be at least 1: " + n);
    }
    if (n > 1 && collective.worldSize() > 1) {
      throw new IllegalStateException("validation inside an epoch runs in one process only");
    }
    this.validationsPerEpoch = n;
  }

  /** Parameters of the model (a gradient is 4 bytes each). */
  public int parameterCount() {
    return session.replica().parameterCount();
  }

  public Schedule schedule() {
    return runner.schedule();
  }

  /**
   * Trains epochs {@code history.size() + 1 .. epochs}, continuing {@code history}, checkpointing
   * each epoch into {@code dir} (rank 0 only: other ranks write nothing, {@code dir} may be null
   * there). Returns all epochs' metrics.
   */
  public List<EpochMetrics> fit(RunDirectory dir, List<EpochMetrics> history, int bestEpoch) {
    List<EpochMetrics> done = new ArrayList<>(history);
    int best = bestEpoch;
    for (int epoch = history.size() + 1; epoch <= config.train().epochs(); epoch++) {
      EpochMetrics m = epoch(epoch);
      done.add(m);
      if (isBetter(m, best == 0 ? null : done.get(best - 1))) {
        best = epoch;
      }
      if (collective.rank() == 0) {
        Checkpoint.save(
            dir.checkpoint(epoch),
            session.replica().model(),
            session.replica().optimizer(),
            views(),
            run.seed(),
            epoch);
        dir.recordEpoch(done, best);
      }
      for (TrainingListener l : listeners) {
        l.epochFinished(m);
      }
    }
    collective.finish();
    return done;
  }

  /**
   * Whether epoch {@code m} replaces {@code best} (null: none yet) as the tested epoch: a higher
   * validation AP, or, without validation events (AP NaN: nothing to choose by), the later epoch,
   * as a run without validation tests its last parameters.
   */
  private static boolean isBetter(EpochMetrics m, EpochMetrics best) {
    return best == null || Double.isNaN(m.valAp()) || m.valAp() > best.valAp();
  }

  private List<dev.depbloom.memory.NodeMemory> views() {
    MemoryStore m = session.memory();
    return m == null ? List.of() : m.views();
  }

  /** Restores parameters, optimizer state and every memory view (to resume after {@code epoch}). */
  public void restore(RunDirectory dir, int epoch) {
    Checkpoint.load(
        dir.checkpoint(epoch), session.replica().model(), session.replica().optimizer(), views());
  }

  private EpochMetrics epoch(int epoch) {
    TensorRuntime.applyThreads(run.threads());
    session.replica().model().train(true);
    runner.resetTimers();
    List<RoundPlan> rounds = runner.schedule().plan(epoch);
    Map<Integer, Integer> checks = new java.util.HashMap<>(); // round -> position
    for (ValidationChecks.Check c :
        ValidationChecks.plan(
            rounds, runner.schedule().validationView(), validationsPerEpoch, split.trainEnd())) {
      checks.put(c.round(), c.position());
    }
    long total = rounds.stream().mapToLong(RoundPlan::events).sum();
    for (TrainingListener l : listeners) {
      l.phaseStarted("train", epoch, total);
    }
    long[] sentBefore = bytesSent();
    long t0 = System.nanoTime();
    long checkNanos = 0; // time spent validating inside the epoch: not training time
    double lossSum = 0; // of the rounds' losses, each the mean over the round's events
    long events = 0;
    for (int r = 0; r < rounds.size(); r++) {
      RoundPlan round = rounds.get(r);
      lossSum +=
          finite(
              runner.run(round, r + 1 < rounds.size() ? rounds.get(r + 1) : null, epoch),
              epoch,
              round);
      events += round.events();
      for (TrainingListener l : listeners) {
        l.batchFinished("train", events, lossSum / (r + 1));
      }
      Integer position = checks.get(r);
      if (position != null) {
        runner.drain();
        long c0 = System.nanoTime();
        double trained = (c0 - t0 - checkNanos) / 1e9;
        double ap = check(epoch, position);
        checkNanos += System.nanoTime() - c0;
        for (TrainingListener l : listeners) {
          l.checkFinished(epoch, position, trained, ap);
        }
      }
    }
    runner.drain();
    for (TrainingListener l : listeners) {
      l.phaseFinished("train");
    }
    double trainSeconds = (System.nanoTime() - t0 - checkNanos) / 1e9;
    long[] sent = bytesSent();
    for (int k = 0; k < sent.length; k++) {
      sent[k] -= sentBefore[k];
    }
    String checksum = session.replica().checksum();
    List<RankMetrics> ranks = rankMetrics(epoch, sent, checksum);
    Map<String, Double> stages = runner.timer().secondsByKey();
    List<Map<String, Double>> perDevice = new ArrayList<>();
    for (StageTimer t : runner.deviceTimers()) {
      perDevice.add(t.secondsByKey());
    }
    perDevice = deviceTimesOfAllRanks(perDevice);
    long v0 = System.nanoTime();
    session.replica().model().eval();
    double[] apAuc = validate(epoch);
    double valSeconds = (System.nanoTime() - v0) / 1e9;
    return new EpochMetrics(
        epoch,
        lossSum / Math.max(1, rounds.size()),
        events,
        trainSeconds,
        apAuc[0],
        apAuc[1],
        apAuc[2],
        valSeconds,
        stages,
        perDevice,
        checksum,
        ranks);
  }

  /**
   * Each logical device's stage seconds as measured by the process that ran it (this process's
   * timers hold zeros for the devices of other ranks).
   */
  private List<Map<String, Double>> deviceTimesOfAllRanks(List<Map<String, Double>> local) {
    int w = collective.worldSize();
    if (w == 1) {
      return local;
    }
    List<String> keys = List.copyOf(local.get(0).keySet());
    long[] mine = new long[local.size() * keys.size()];
    for (int d = 0; d < local.size(); d++) {
      for (int k = 0; k < keys.size(); k++) {
        mine[d * keys.size() + k] = Double.doubleToRawLongBits(local.get(d).get(keys.get(k)));
      }
    }
    long[] all = collective.allGather(mine);
    List<Map<String, Double>> out = new ArrayList<>();
    for (int d = 0; d < local.size(); d++) {
      int from = runner.schedule().rankOf(d, w) * mine.length + d * keys.size();
      Map<String, Double> m = new java.util.LinkedHashMap<>();
      for (int k = 0; k < keys.size(); k++) {
        m.put(keys.get(k), Double.longBitsToDouble(all[from + k]));
      }
      out.add(m);
    }
    return out;
  }

  /** Bytes this process has sent so far, by {@link Traffic} kind. */
  private long[] bytesSent() {
    long[] out = new long[Traffic.values().length];
    for (Traffic t : Traffic.values()) {
      out[t.ordinal()] = collective.bytesSent(t);
    }
    return out;
  }

  /**
   * Every rank's bytes of the epoch and parameter checksum (none for one process).
   *
   * @throws IllegalStateException when the ranks' parameters differ
   */
  private List<RankMetrics> rankMetrics(int epoch, long[] sent, String checksum) {
    if (collective.worldSize() == 1) {
      return List.of();
    }
    long memory = sent[Traffic.MEMORY.ordinal()];
    long gradients = sent[Traffic.GRADIENTS.ordinal()];
    long other = sent[Traffic.LOSS.ordinal()] + sent[Traffic.CONTROL.ordinal()];
    long[] all =
        collective.allGather(new long[] {gradients, memory, other, Long.parseLong(checksum, 16)});
    List<RankMetrics> ranks = new ArrayList<>();
    for (int r = 0; r < collective.worldSize(); r++) {
      String crc = String.format("%08x", all[4 * r + 3]);
      ranks.add(new RankMetrics(r, all[4 * r], all[4 * r + 1], all[4 * r + 2], crc));
      if (!crc.equals(checksum)) {
        throw new IllegalStateException(
            "the parameters of rank "
                + r
                + " differ from rank "
                + collective.rank()
                + "'s after epoch "
                + epoch
                + ": checksum "
                + crc
                + " vs "
                + checksum);
      }
    }
    return ranks;
  }

  /** A round's training loss, or the run stops when it is NaN or infinite. */
  private double finite(double loss, int epoch, RoundPlan round) {
    if (Double.isFinite(loss)) {
      return loss;
    }
    int first = Integer.MAX_VALUE;
    int end = 0;
    for (ItemPlan item : round.items()) {
      first = Math.min(first, item.start());
      end = Math.max(end, item.events()[item.size() - 1] + 1);
    }
    throw stopped(
        "train",
        TrainingDivergedException.inEpoch(
            epoch,
            "round " + round.index() + " (" + TrainingDivergedException.events(first, end) + ")",
            "training loss is " + loss));
  }

  /** Ends {@code phase} for the listeners (a progress bar ends its line) before the run stops. */
  private TrainingDivergedException stopped(String phase, TrainingDivergedException e) {
    for (TrainingListener l : listeners) {
      l.phaseFinished(phase);
    }
    return e;
  }

  private double[] validate(int epoch) {
    int view = runner.schedule().validationView();
    return validate(epoch, "val", session.memory(), view, session.sampler(view));
  }

  /**
   * A validation inside epoch {@code epoch}, training having reached stream position {@code
   * position}: on a copy of the validation view into which the rest of the epoch's training events
   * are replayed, with a sampler of its own (the training views' samplers keep their cursors).
   * Returns the validation AP; training state is untouched.
   */
  private double check(int epoch, int position) {
    int view = runner.schedule().validationView();
    session.replica().model().eval();
    try (NeighborSampler sampler = session.newSampler()) {
      if (session.memory() == null) {
        return validate(epoch, null, null, 0, sampler)[0];
      }
      try (MemoryStore copy = session.freshMemory()) {
        int[] all = new int[run.events().nodeCount()];
        java.util.Arrays.setAll(all, i -> i);
        copy.view(0).copyRows(session.memory().view(view), all, all);
        replay(null, epoch, position, split.trainEnd(), sampler, copy);
        return validate(epoch, null, copy, 0, sampler)[0];
      }
    } finally {
      session.replica().model().train(true);
    }
  }

  /**
   * Validation AP, AUC and loss of view {@code view} of {@code memory} (null: no memory), reported
   * to the listeners as {@code phase} (null: a check inside an epoch, not reported).
   */
  private double[] validate(
      int epoch, String phase, MemoryStore memory, int view, NeighborSampler sampler) {
    List<Double> aps = new ArrayList<>();
    List<Double> aucs = new ArrayList<>();
    List<Double> losses = new ArrayList<>();
    // the test's scorer with one negative: one scoring mechanism for validation and test, on all
    // workers (scores independent of their number), and the test's code paths compiled by the JIT
    // before the test rather than during it
    try (EventSliceScorer scorer =
        new EventSliceScorer(session.step(), session.planner(), config, run.threads().workers())) {
      walk(
          phase,
          epoch,
          split.trainEnd(),
          split.valEnd(),
          (i, start, end) -> session.batch(i, start, end, 1, VAL, epoch, start),
          VAL,
          (batch, stream) -> {
            BatchScores s = scorer.score(batch, stream, sampler, memory, view, true);
            try {
              aps.add(RankingMetrics.averagePrecision(s.positive(), s.firstNegative()));
              aucs.add(RankingMetrics.rocAuc(s.positive(), s.firstNegative()));
              losses.add(RankingMetrics.binaryCrossEntropy(s.positive(), s.firstNegative()));
            } catch (IllegalArgumentException e) {
              throw stopped(
                  phase == null ? "train" : phase, // a check stops inside the training phase
                  TrainingDivergedException.inEpoch(
                      epoch,
                      (phase == null ? "validation inside the epoch, " : "validation ")
                          + where(batch),
                      e.getMessage()));
            }
          });
    }
    return new double[] {mean(aps), mean(aucs), mean(losses)};
  }

  /** {@code "batch 5 (events 120,600-121,200)"}. */
  private static String where(Batch batch) {
    return "batch "
        + batch.index()
        + " ("
        + TrainingDivergedException.events(batch.start(), batch.start() + batch.size())
        + ")";
  }

  /** Fixes the events per scoring pass of the test (0: sized by memory); results do not change. */
  void testEventsPerPass(int events) {
    this.testEventsPerPass = events;
  }

  /**
   * Tests the parameters of checkpoint {@code epoch} under both protocols, against the same
   * negatives: continued (the test events scored on the memory the checkpoint holds, which is what
   * the epoch's validation left behind) and TGL's (fresh memory, the training and validation events
   * replayed, then the test events scored). The replay runs first, into memory of its own; then one
   * pass over the test events scores both protocols side by side, sharing everything that depends
   * only on the stream (plans, samples, the attention layers' edge and time projections). Models
   * without memory have one protocol, scored once. The replay and the scoring run on all workers.
   */
  public TestMetrics test(RunDirectory dir, int epoch) {
    long t0 = System.nanoTime();
    boolean memory = session.memory() != null;
    Checkpoint.load(
        dir.checkpoint(epoch),
        session.replica().model(),
        null,
        memory ? views() : List.<dev.depbloom.memory.NodeMemory>of());
    session.replica().model().eval();
    int view = memory ? runner.schedule().validationView() : 0;
    // one worker's budget (see the class comment); the replay's per-batch products are small, and
    // with the BLAS threads of all workers each one waited for a helper thread that a loaded
    // machine may not schedule for milliseconds (JODIE: replay 4-6 s instead of 0.4-0.8 s)
    TensorRuntime.applyThreads(run.threads());
    List<TestScoreAccumulator> scores;
    Map<String, Double> stages = new LinkedHashMap<>();
    try (EventSliceScorer scorer =
            new EventSliceScorer(
                session.step(), session.planner(), config, run.threads().workers());
        MemoryStore replayed = memory ? session.freshMemory() : null) {
      scorer.eventsPerPass(testEventsPerPass);
      List<ScoredMemory> memories = List.of();
      if (memory) {
        session.resetSampler(view);
        NeighborSampler sampler = session.sampler(view);
        replay(
            "replay",
            0,
            0,
            split.valEnd(),
            (batch, stream) -> scorer.replay(batch, stream, sampler, replayed, 0));
        memories = List.of(new ScoredMemory(session.memory(), view), new ScoredMemory(replayed, 0));
      }
      long[] metricsNanos = new long[1];
      scores = testPass(view, memories, scorer, epoch, metricsNanos);
      stages.putAll(scorer.phaseSeconds());
      stages.put("metrics", metricsNanos[0] / 1e9);
    }
    TestMetrics.Protocol tgl = scores.get(scores.size() - 1).result();
    TestMetrics m =
        new TestMetrics(
            tgl,
            memory ? scores.get(0).result() : tgl,
            config.train().evalNegatives(),
            scores.get(0).events(),
            scores.get(0).newNodeEvents(),
            (System.nanoTime() - t0) / 1e9,
            stages);
    for (TrainingListener l : listeners) {
      l.testFinished(m);
    }
    return m;
  }

  /**
   * Events {@code [from, to)} written by {@code write}, without scoring: TGL's replay of the
   * training and validation events before the test ({@link EventSliceScorer#replay}, on all
   * workers), and a check's replay of the rest of an epoch ({@link #replay(String, int, int, int,
   * NeighborSampler, MemoryStore)}). The listeners follow it as {@code phase} (null: not told).
   */
  private void replay(String phase, int epoch, int from, int to, BatchAction write) {
    walk(
        phase,
        epoch,
        from,
        to,
        (i, start, end) -> session.batch(i, start, end, 0, REPLAY, epoch, start),
        REPLAY,
        write);
  }

  /**
   * Events {@code [from, to)} write view 0 of {@code memory} on one worker, sampled with {@code
   * sampler}: a check's replay of the rest of an epoch.
   */
  private void replay(
      String phase, int epoch, int from, int to, NeighborSampler sampler, MemoryStore memory) {
    replay(
        phase,
        epoch,
        from,
        to,
        (batch, stream) ->
            session.step().replay(session.planner().planWrite(batch, stream, sampler), memory, 0));
  }

  /**
   * Scores the test events on each of {@code memories} (writing them as they go; none for models
   * without memory), with {@code train.eval_negatives} ranking negatives per event besides the AP
   * negative; the neighbors are sampled with the sampler of view {@code view}. One accumulator per
   * memory, in order (one for models without memory). The metrics' share of the wall time is added
   * to {@code metricsNanos[0]}.
   */
  private List<TestScoreAccumulator> testPass(
      int view,
      List<ScoredMemory> memories,
      EventSliceScorer scorer,
      int epoch,
      long[] metricsNanos) {
    int ranking = config.train().evalNegatives();
    TestNegatives negatives = new TestNegatives(run.events(), run.seed());
    List<TestScoreAccumulator> scores = new ArrayList<>();
    for (int i = 0; i < Math.max(1, memories.size()); i++) {
      scores.add(
          new TestScoreAccumulator(
              split.seenInTraining(run.events()),
              run.events().sources(),
              run.events().destinations(),
              ranking > 0));
    }
    String[] protocols =
        memories.size() > 1 ? new String[] {"continued", "TGL's"} : new String[] {""};
    walk(
        "test",
        0,
        split.valEnd(),
        split.eventCount(),
        (i, start, end) -> negatives.batch(i, start, end, ranking, TEST, 0, start),
        TEST,
        (batch, stream) -> {
          List<BatchScores> s = scorer.score(batch, stream, session.sampler(view), memories, true);
          long m0 = System.nanoTime();
          for (int i = 0; i < s.size(); i++) {
            try {
              scores.get(i).add(batch, s.get(i));
            } catch (IllegalArgumentException e) {
              throw stopped(
                  "test",
                  new TrainingDivergedException(
                      "test ("
                          + (protocols[i].isEmpty() ? "" : protocols[i] + " protocol, ")
                          + where(batch)
                          + "): "
                          + e.getMessage()
                          + "; the tested checkpoint is checkpoints/epoch-"
                          + epoch
                          + ".pt",
                      e));
            }
          }
          metricsNanos[0] += System.nanoTime() - m0;
        });
    return scores;
  }

  /** The batch of events {@code [start, end)}, the {@code index}-th of its phase. */
  private interface BatchSource {
    Batch batch(int index, int start, int end);
  }

  /** What a phase does with one batch. */
  private interface BatchAction {
    void apply(Batch batch, long stream);
  }

  /**
   * Walks events {@code [from, to)} in TGL-aligned batches from {@code source}; batch streams are
   * keyed by (seed, phase, epoch, first event). The listeners follow it as {@code phase} (null:
   * they are not told).
   */
  private long walk(
      String phase,
      int epoch,
      int from,
      int to,
      BatchSource source,
      long phaseKey,
      BatchAction action) {
    List<int[]> bounds = session.bounds(from, to);
    List<TrainingListener> told = phase == null ? List.of() : listeners;
    for (TrainingListener l : told) {
      l.phaseStarted(phase, epoch, to - from);
    }
    long done = 0;
    for (int i = 0; i < bounds.size(); i++) {
      int start = bounds.get(i)[0];
      int end = bounds.get(i)[1];
      action.apply(
          source.batch(i, start, end), RandomStreams.derive(run.seed(), phaseKey, epoch, start));
      done += end - start;
      for (TrainingListener l : told) {
        l.batchFinished(phase, done, Double.NaN);
      }
    }
    for (TrainingListener l : told) {
      l.phaseFinished(phase);
    }
    return done;
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  @Override
  public void close() {
    runner.close();
    session.close();
  }
}
