package dev.depbloom.train;

import dev.depbloom.device.Collective;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.eval.Evaluator;
import dev.depbloom.eval.TestBatchListener;
import dev.depbloom.eval.TestMetrics;
import dev.depbloom.eval.Validation;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.Phase;
import dev.depbloom.observe.PhaseListener;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.recording.RoundCostRecorder;
import dev.depbloom.recording.TraceSpans;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ValidationChecks;
import dev.depbloom.step.TrainingDivergedException;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.TensorRuntime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Training under a {@link Schedule}: per epoch, the schedule's rounds (each a fan-out of work items
 * over the logical devices, one optimizer step, a commit), then a validation pass that continues
 * the memory of the schedule's validation view (TGL's protocol), then a checkpoint; after training,
 * the best epoch's parameters are tested under two protocols ({@link Evaluator}). A NaN or infinite
 * training loss or score, or a validation or test pass that ranks nothing, stops the run with a
 * {@link TrainingDivergedException} naming the epoch and the round or batches.
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
  private final TrainingRun run;
  private final ModelConfig config;
  private final TrainingSession session;
  private final TrainingRounds rounds;
  private final Collective collective;
  private final List<TrainingListener> listeners = new ArrayList<>();
  private final Evaluator evaluator;
  private final RankReport ranks;
  private int validationsPerEpoch = 1; // the epoch's end, and checks inside it (ValidationChecks)
  private long validateEvery; // > 0: checks every so many trained events instead (ValidationChecks)
  private long trainedEvents; // since the run's start, for checks at equal amounts of training
  private BooleanSupplier stop = () -> false; // asked after every epoch: stop training there
  private boolean stopInsideEpochs; // asked after every validation inside an epoch too

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
    this.config = run.model();
    this.collective = collective;
    this.rounds = new TrainingRounds(run, collective);
    this.session = rounds.session();
    this.evaluator = new Evaluator(session, PhaseListener.all(listeners));
    this.ranks = new RankReport(collective, rounds.schedule());
  }

  public void addListener(TrainingListener listener) {
    listeners.add(listener);
  }

  /**
   * Hands the measured costs of every training round to {@code observer}, with the kernels of the
   * rounds of epochs 1 to {@code recordKernelsUpToEpoch} (0: none) in their work: a GPU
   * projection's input ({@link RoundCostRecorder}).
   */
  public void observe(RoundObserver observer, int recordKernelsUpToEpoch) {
    rounds.listen(new RoundCostRecorder(observer, recordKernelsUpToEpoch));
  }

  /** Records every training round's stages into {@code trace} (one track per logical device). */
  public void trace(ChromeTrace trace) {
    rounds.listen(new TraceSpans(trace));
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

  /**
   * Validates after every {@code events} trained events (counted from the run's start, each event
   * once per memory group that trains it), at the first round where the validation view is whole,
   * besides at every epoch's end: rows that train different amounts per epoch are then checked
   * after the same amounts of training (issue 34). Checks as in {@link #validationsPerEpoch}; one
   * process only.
   */
  public void validateEvery(long events) {
    if (events < 1) {
      throw new IllegalArgumentException("a check interval must be at least 1 event: " + events);
    }
    if (collective.worldSize() > 1) {
      throw new IllegalStateException("validation inside an epoch runs in one process only");
    }
    this.validateEvery = events;
  }

  /**
   * Asks {@code stop} after every epoch (its validation done, its checkpoint written): training
   * ends there when it says so (a converged run's patience, a cap on training). With {@code
   * insideEpochs} it is asked after every validation inside an epoch too, and training may end
   * there, the epoch left unfinished: no validation at its end and no checkpoint of it (a short
   * trial run that tests nothing).
   */
  public void stopWhen(BooleanSupplier stop, boolean insideEpochs) {
    this.stop = stop;
    this.stopInsideEpochs = insideEpochs;
  }

  /** Parameters of the model (a gradient is 4 bytes each). */
  public int parameterCount() {
    return session.replica().parameterCount();
  }

  public Schedule schedule() {
    return rounds.schedule();
  }

  /**
   * Trains epochs {@code history.size() + 1 .. epochs}, continuing {@code history}, checkpointing
   * each epoch into {@code dir} (rank 0 only: other ranks write nothing, {@code dir} may be null
   * there). Returns all epochs' metrics.
   */
  public List<EpochMetrics> fit(RunDirectory dir, List<EpochMetrics> history, int bestEpoch) {
    List<EpochMetrics> done = new ArrayList<>(history);
    int best = bestEpoch;
    trainedEvents = history.stream().mapToLong(EpochMetrics::trainEvents).sum();
    for (int epoch = history.size() + 1; epoch <= config.train().epochs(); epoch++) {
      EpochMetrics m = epoch(epoch);
      if (m == null) {
        break; // stopped inside the epoch
      }
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
      if (stop.getAsBoolean()) {
        break;
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

  private List<NodeMemory> views() {
    return session.memory().views();
  }

  /** Restores parameters, optimizer state and every memory view (to resume after {@code epoch}). */
  public void restore(RunDirectory dir, int epoch) {
    Checkpoint.load(
        dir.checkpoint(epoch), session.replica().model(), session.replica().optimizer(), views());
  }

  /**
   * What an epoch's rounds did: their losses' sum, events, and seconds spent training; {@code
   * stopped} when training stopped inside the epoch.
   */
  private record Rounds(
      double lossSum, int count, long events, double trainSeconds, boolean stopped) {}

  /** An epoch's rounds and its validation; null when training stopped inside it. */
  private EpochMetrics epoch(int epoch) {
    TensorRuntime.applyThreads(run.threads());
    session.replica().model().train(true);
    rounds.times().reset();
    RankReport.BytesSent sentBefore = ranks.bytesSent();
    Rounds trained = trainRounds(epoch);
    if (trained.stopped()) {
      return null;
    }
    RankReport.BytesSent sent = ranks.bytesSent().since(sentBefore);
    String checksum = session.replica().checksum();
    List<RankMetrics> rankMetrics = ranks.rankMetrics(epoch, sent, checksum);
    Map<String, Double> stages = rounds.times().run().secondsByKey();
    List<Map<String, Double>> perDevice = new ArrayList<>();
    for (StageTimer t : rounds.times().devices()) {
      perDevice.add(t.secondsByKey());
    }
    perDevice = ranks.deviceTimesOfAllRanks(perDevice);
    long v0 = System.nanoTime();
    session.replica().model().eval();
    Validation v = evaluator.validate(epoch, run.schedule().validationView());
    double valSeconds = (System.nanoTime() - v0) / 1e9;
    return new EpochMetrics(
        epoch,
        trained.lossSum() / Math.max(1, trained.count()),
        trained.events(),
        trained.trainSeconds(),
        v.ap(),
        v.auc(),
        v.loss(),
        valSeconds,
        stages,
        perDevice,
        checksum,
        rankMetrics);
  }

  /** Trains an epoch's rounds, with the validations inside the epoch its checks ask for. */
  private Rounds trainRounds(int epoch) {
    RoundRunner.EpochRounds cursor = rounds.epoch(epoch);
    List<RoundPlan> plans = cursor.rounds();
    Map<Integer, Integer> checks = new HashMap<>(); // round -> position
    int view = run.schedule().validationView();
    for (ValidationChecks.Check c :
        validateEvery > 0
            ? ValidationChecks.every(plans, view, validateEvery, trainedEvents)
            : ValidationChecks.plan(plans, view, validationsPerEpoch, run.split().trainEnd())) {
      checks.put(c.round(), c.position());
    }
    long total = plans.stream().mapToLong(RoundPlan::events).sum();
    for (TrainingListener l : listeners) {
      l.phaseStarted(Phase.TRAIN, epoch, total);
    }
    long t0 = System.nanoTime();
    long checkNanos = 0; // time spent validating inside the epoch: not training time
    double lossSum = 0; // of the rounds' losses, each the mean over the round's events
    long events = 0;
    boolean stopped = false;
    while (cursor.hasNext()) {
      int r = cursor.nextIndex();
      RoundPlan round = cursor.peek();
      lossSum += finite(cursor.runNext(), epoch, round);
      events += round.events();
      trainedEvents += round.events();
      for (TrainingListener l : listeners) {
        l.batchFinished(Phase.TRAIN, events, lossSum / (r + 1));
      }
      Integer position = checks.get(r);
      if (position != null) {
        rounds.drain();
        long c0 = System.nanoTime();
        double trained = (c0 - t0 - checkNanos) / 1e9;
        double ap = evaluator.check(epoch, run.schedule().validationView(), position);
        checkNanos += System.nanoTime() - c0;
        for (TrainingListener l : listeners) {
          l.checkFinished(epoch, position, trainedEvents, trained, ap);
        }
        if (stopInsideEpochs && stop.getAsBoolean()) {
          stopped = true;
          break;
        }
      }
    }
    rounds.drain();
    for (TrainingListener l : listeners) {
      l.phaseFinished(Phase.TRAIN);
    }
    double seconds = (System.nanoTime() - t0 - checkNanos) / 1e9;
    return new Rounds(lossSum, plans.size(), events, seconds, stopped);
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
    for (TrainingListener l : listeners) { // a progress bar ends its line before the run stops
      l.phaseFinished(Phase.TRAIN);
    }
    throw TrainingDivergedException.inEpoch(
        epoch,
        "round " + round.index() + " (" + TrainingDivergedException.events(first, end) + ")",
        "training loss is " + loss);
  }

  /** Hands every scored test batch to {@code listener} ({@link Evaluator#onTestBatch}). */
  public void onTestBatch(TestBatchListener listener) {
    evaluator.onTestBatch(listener);
  }

  /** Fixes the events per scoring pass of the test (0: sized by memory); results do not change. */
  void testEventsPerPass(int events) {
    evaluator.testEventsPerPass(events);
  }

  /**
   * Tests the parameters of checkpoint {@code epoch} under both protocols ({@link Evaluator#test}):
   * continued, on the memory the checkpoint holds (what the epoch's validation left behind), and
   * TGL's, after a memory reset and a replay of the training and validation events.
   */
  public TestMetrics test(RunDirectory dir, int epoch) {
    long t0 = System.nanoTime();
    boolean memory = !session.memory().isNone();
    Checkpoint.load(dir.checkpoint(epoch), session.replica().model(), null, views());
    int view = memory ? run.schedule().validationView() : 0;
    TestMetrics m = evaluator.test(epoch, view, t0);
    for (TrainingListener l : listeners) {
      l.testFinished(m);
    }
    return m;
  }

  /** Frees the run's native state ({@link TrainingRounds#close}). */
  @Override
  public void close() {
    rounds.close();
  }
}
