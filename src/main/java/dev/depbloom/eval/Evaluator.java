package dev.depbloom.eval;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.data.Split;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.observe.Phase;
import dev.depbloom.observe.PhaseListener;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.step.BatchScores;
import dev.depbloom.step.ScoredMemory;
import dev.depbloom.step.SessionSpec;
import dev.depbloom.step.TrainingDivergedException;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.TensorRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run scores without training (TGL's protocols): validation at an epoch's end, which
 * continues the memory of the schedule's validation view; validation inside an epoch, on a copy of
 * that view into which the rest of the epoch's training events are replayed; and the test of a
 * checkpoint under two protocols against the same negatives — continued (the test events scored on
 * the memory validation left behind) and TGL's (fresh memory, the training and validation events
 * replayed, then the test events scored). A NaN or infinite score stops the run with a {@link
 * TrainingDivergedException} naming the epoch and the batch, and so does a pass whose scores rank
 * nothing ({@link DegenerateScoreCheck}: all equal, or all exactly 0 or 1), naming its batches.
 *
 * <p>Every batch's negatives and samples come from streams keyed by (seed, phase, epoch, first
 * event), so scores do not depend on how many workers run them.
 */
public final class Evaluator {
  private static final long VAL = RandomStreams.key("val");
  private static final long TEST = RandomStreams.key("test");
  private static final long REPLAY = RandomStreams.key("replay");

  private final SessionSpec run;
  private final ModelConfig config;
  private final Split split;
  private final TrainingSession session;
  private final PhaseListener listener;
  private int testEventsPerPass; // 0: EventSliceScorer's budget
  private TestBatchListener testBatches = TestBatchListener.NONE;

  /**
   * Scores with {@code session}'s model, memory and samplers; progress goes to {@code listener}.
   */
  public Evaluator(TrainingSession session, PhaseListener listener) {
    this.session = session;
    this.run = session.spec();
    this.config = run.config();
    this.split = run.split();
    this.listener = listener;
  }

  /** Fixes the events per scoring pass of the test (0: sized by memory); results do not change. */
  public void testEventsPerPass(int events) {
    this.testEventsPerPass = events;
  }

  /** Hands every scored test batch to {@code listener} (the scores, beside the metrics). */
  public void onTestBatch(TestBatchListener listener) {
    this.testBatches = listener;
  }

  /**
   * The random stream of the test batch that starts at stream index {@code firstEvent} (its
   * negatives and neighbor samples): serving continues the test pass's streams with it.
   */
  public static long testStream(long seed, int firstEvent) {
    return RandomStreams.derive(seed, TEST, 0, firstEvent);
  }

  /** Validation of epoch {@code epoch} on view {@code view} of the session's memory. */
  public Validation validate(int epoch, int view) {
    return validate(epoch, Phase.VALIDATION, session.memory(), view, session.sampler(view));
  }

  /**
   * A validation inside epoch {@code epoch}, training having reached stream position {@code
   * position}: on a copy of view {@code view} into which the rest of the epoch's training events
   * are replayed, with a sampler of its own (the training views' samplers keep their cursors).
   * Returns the validation AP; training state is untouched.
   */
  public double check(int epoch, int view, int position) {
    session.replica().model().eval();
    try (NeighborSampler sampler = session.newSampler()) {
      if (session.memory().isNone()) {
        return validate(epoch, null, session.memory(), 0, sampler).ap();
      }
      try (MemoryStore copy = session.freshMemory()) {
        int[] all = new int[run.events().nodeCount()];
        Arrays.setAll(all, i -> i);
        copy.view(0).copyRows(session.memory().view(view), all, all);
        replay(null, epoch, position, split.trainEnd(), sampler, copy);
        return validate(epoch, null, copy, 0, sampler).ap();
      }
    } finally {
      session.replica().model().train(true);
    }
  }

  /**
   * Validation AP, AUC and loss of view {@code view} of {@code memory}, reported to the listener as
   * {@code phase} (null: a check inside an epoch, not reported).
   */
  private Validation validate(
      int epoch, Phase phase, MemoryStore memory, int view, NeighborSampler sampler) {
    List<Double> aps = new ArrayList<>();
    List<Double> aucs = new ArrayList<>();
    List<Double> losses = new ArrayList<>();
    DegenerateScoreCheck degenerate = new DegenerateScoreCheck();
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
            degenerate.add(batch, s.positive(), s.negative());
            try {
              aps.add(RankingMetrics.averagePrecision(s.positive(), s.firstNegative()));
              aucs.add(RankingMetrics.rocAuc(s.positive(), s.firstNegative()));
              losses.add(RankingMetrics.binaryCrossEntropy(s.positive(), s.firstNegative()));
            } catch (IllegalArgumentException e) {
              throw stopped(
                  phase == null ? Phase.TRAIN : phase, // a check stops inside the training phase
                  TrainingDivergedException.inEpoch(
                      epoch,
                      (phase == null ? "validation inside the epoch, " : "validation ")
                          + where(batch),
                      e.getMessage()));
            }
          });
    }
    String problem = degenerate.problem(config.train().learningRate());
    if (problem != null) {
      TrainingDivergedException e =
          TrainingDivergedException.inEpoch(
              epoch,
              (phase == null ? "validation inside the epoch, " : "validation ")
                  + degenerate.where(),
              problem);
      throw phase == null ? stopped(Phase.TRAIN, e) : e; // a validation's walk ended its phase
    }
    return new Validation(mean(aps), mean(aucs), mean(losses));
  }

  /** {@code "batch 5 (events 120,600-121,200)"}. */
  private static String where(Batch batch) {
    return "batch "
        + batch.index()
        + " ("
        + TrainingDivergedException.events(batch.start(), batch.start() + batch.size())
        + ")";
  }

  /**
   * Tests the parameters the session holds (those of checkpoint {@code epoch}, loaded with the
   * memory that epoch's validation left behind) under both protocols, against the same negatives:
   * continued, on view {@code view} of that memory, and TGL's. The replay runs first, into memory
   * of its own; then one pass over the test events scores both protocols side by side, sharing
   * everything that depends only on the stream (plans, samples, the attention layers' edge and time
   * projections). Models without memory have one protocol, scored once. The replay and the scoring
   * run on all workers. The metrics' wall time counts from {@code startNanos}.
   */
  public TestMetrics test(int epoch, int view, long startNanos) {
    boolean memory = !session.memory().isNone();
    session.replica().model().eval();
    // one worker's budget (see Trainer); the replay's per-batch products are small, and with the
    // BLAS threads of all workers each one waited for a helper thread that a loaded machine may
    // not schedule for milliseconds (JODIE: replay 4-6 s instead of 0.4-0.8 s)
    TensorRuntime.applyThreads(run.threads());
    List<TestScoreAccumulator> scores;
    Map<String, Double> stages = new LinkedHashMap<>();
    try (EventSliceScorer scorer =
            new EventSliceScorer(
                session.step(), session.planner(), config, run.threads().workers());
        MemoryStore replayed = session.freshMemory()) {
      scorer.eventsPerPass(testEventsPerPass);
      List<ScoredMemory> memories = List.of();
      if (memory) {
        session.resetSampler(view);
        NeighborSampler sampler = session.sampler(view);
        replay(
            Phase.REPLAY,
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
    return new TestMetrics(
        tgl,
        memory ? scores.get(0).result() : tgl,
        config.train().evalNegatives(),
        scores.get(0).events(),
        scores.get(0).newNodeEvents(),
        (System.nanoTime() - startNanos) / 1e9,
        stages);
  }

  /**
   * Events {@code [from, to)} written by {@code write}, without scoring: TGL's replay of the
   * training and validation events before the test ({@link EventSliceScorer#replay}, on all
   * workers), and a check's replay of the rest of an epoch. The listener follows it as {@code
   * phase} (null: not told).
   */
  private void replay(Phase phase, int epoch, int from, int to, BatchAction write) {
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
      Phase phase, int epoch, int from, int to, NeighborSampler sampler, MemoryStore memory) {
    replay(
        phase,
        epoch,
        from,
        to,
        (batch, stream) ->
            session
                .step()
                .scoring()
                .replay(session.planner().planWrite(batch, stream, sampler), memory, 0));
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
        Phase.TEST,
        0,
        split.valEnd(),
        split.eventCount(),
        (i, start, end) -> negatives.batch(i, start, end, ranking, TEST, 0, start),
        TEST,
        (batch, stream) -> {
          List<BatchScores> s = scorer.score(batch, stream, session.sampler(view), memories, true);
          testBatches.batchScored(batch, s.get(0), s.get(s.size() - 1));
          long m0 = System.nanoTime();
          for (int i = 0; i < s.size(); i++) {
            try {
              scores.get(i).add(batch, s.get(i));
            } catch (IllegalArgumentException e) {
              throw stopped(
                  Phase.TEST,
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
    checkNotDegenerate(scores, protocols, epoch);
    return scores;
  }

  /**
   * Throws when a protocol's test scores are degenerate (checked in protocol order), naming the
   * protocol and the tested checkpoint.
   */
  private void checkNotDegenerate(
      List<TestScoreAccumulator> scores, String[] protocols, int epoch) {
    for (int i = 0; i < scores.size(); i++) {
      String problem = scores.get(i).degenerate().problem(config.train().learningRate());
      if (problem != null) {
        throw new TrainingDivergedException(
            "test ("
                + (protocols[i].isEmpty() ? "" : protocols[i] + " protocol, ")
                + scores.get(i).degenerate().where()
                + "): "
                + problem
                + "; the tested checkpoint is checkpoints/epoch-"
                + epoch
                + ".pt");
      }
    }
  }

  /** Ends {@code phase} for the listener (a progress bar ends its line) before the run stops. */
  private TrainingDivergedException stopped(Phase phase, TrainingDivergedException e) {
    listener.phaseFinished(phase);
    return e;
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
   * keyed by (seed, phase, epoch, first event). The listener follows it as {@code phase} (null: it
   * is not told).
   */
  private long walk(
      Phase phase,
      int epoch,
      int from,
      int to,
      BatchSource source,
      long phaseKey,
      BatchAction action) {
    List<int[]> bounds = session.bounds(from, to);
    if (phase != null) {
      listener.phaseStarted(phase, epoch, to - from);
    }
    long done = 0;
    for (int i = 0; i < bounds.size(); i++) {
      int start = bounds.get(i)[0];
      int end = bounds.get(i)[1];
      action.apply(
          source.batch(i, start, end), RandomStreams.derive(run.seed(), phaseKey, epoch, start));
      done += end - start;
      if (phase != null) {
        listener.batchFinished(phase, done, Double.NaN);
      }
    }
    if (phase != null) {
      listener.phaseFinished(phase);
    }
    return done;
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }
}
