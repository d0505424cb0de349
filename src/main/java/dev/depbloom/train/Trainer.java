package dev.depbloom.train;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.data.Split;
import dev.depbloom.eval.RankingMetrics;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.tensor.TensorRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * Sequential training with TGL's semantics on one device: per epoch, memory reset, a training pass
 * over the training events, a validation pass that continues the memory; after training, the best
 * epoch's parameters are tested after a memory reset and a replay of training and validation
 * events.
 *
 * <p>Reproducibility: parameters are initialised from the seed; dropout is reseeded at every epoch
 * from (seed, epoch); negatives and uniform samples come from streams keyed by (seed, phase, epoch,
 * batch). A run resumed at an epoch boundary therefore continues exactly as an uninterrupted one.
 */
public final class Trainer implements AutoCloseable {
  private static final long TRAIN = RandomStreams.key("train");
  private static final long VAL = RandomStreams.key("val");
  private static final long TEST = RandomStreams.key("test");
  private static final long REPLAY = RandomStreams.key("replay");

  /** Negatives scored per forward pass in testing. */
  private static final int NEGATIVE_GROUP = 8;

  private final TrainingRun run;
  private final ModelConfig config;
  private final Split split;
  private final TrainingSession session;
  private final TrainingStep step;
  private final List<TrainingListener> listeners = new ArrayList<>();

  public Trainer(TrainingRun run) {
    this.run = run;
    this.config = run.config();
    this.split = run.split();
    this.session = new TrainingSession(run);
    this.step = session.step();
  }

  public void addListener(TrainingListener listener) {
    listeners.add(listener);
  }

  /**
   * Trains epochs {@code history.size() + 1 .. epochs}, continuing {@code history}, checkpointing
   * each epoch into {@code dir}. Returns all epochs' metrics.
   */
  public List<EpochMetrics> fit(RunDirectory dir, List<EpochMetrics> history, int bestEpoch) {
    List<EpochMetrics> done = new ArrayList<>(history);
    int best = bestEpoch;
    for (int epoch = history.size() + 1; epoch <= config.train().epochs(); epoch++) {
      EpochMetrics m = epoch(epoch);
      done.add(m);
      if (best == 0 || m.valAp() > bestOf(done, best)) {
        best = epoch;
      }
      Checkpoint.save(
          dir.checkpoint(epoch),
          session.model(),
          session.optimizer(),
          session.memory(),
          run.seed(),
          epoch);
      dir.recordEpoch(done, best);
      for (TrainingListener l : listeners) {
        l.epochFinished(m);
      }
    }
    return done;
  }

  private static double bestOf(List<EpochMetrics> done, int bestEpoch) {
    return done.get(bestEpoch - 1).valAp();
  }

  /** Restores parameters and optimizer state (to resume after {@code epoch}). */
  public void restore(RunDirectory dir, int epoch) {
    Checkpoint.load(dir.checkpoint(epoch), session.model(), session.optimizer(), null);
  }

  private EpochMetrics epoch(int epoch) {
    TensorRuntime.seed(RandomStreams.derive(run.seed(), RandomStreams.key("dropout"), epoch));
    session.resetTime();
    session.model().train(true);
    session.timer().reset();
    long t0 = System.nanoTime();
    double[] loss = {0};
    int[] batches = {0};
    long events =
        walk(
            "train",
            epoch,
            0,
            split.trainEnd(),
            1,
            TRAIN,
            (batch, stream) -> {
              loss[0] += step.train(batch, stream);
              batches[0]++;
              return loss[0] / batches[0];
            });
    double trainSeconds = (System.nanoTime() - t0) / 1e9;
    var stages = session.timer().secondsByKey();
    long v0 = System.nanoTime();
    session.model().eval();
    double[] apAuc = validate(epoch);
    double valSeconds = (System.nanoTime() - v0) / 1e9;
    return new EpochMetrics(
        epoch,
        loss[0] / Math.max(1, batches[0]),
        events,
        trainSeconds,
        apAuc[0],
        apAuc[1],
        valSeconds,
        stages);
  }

  private double[] validate(int epoch) {
    List<Double> aps = new ArrayList<>();
    List<Double> aucs = new ArrayList<>();
    walk(
        "val",
        epoch,
        split.trainEnd(),
        split.valEnd(),
        1,
        VAL,
        (batch, stream) -> {
          BatchScores s = step.evaluate(batch, stream);
          aps.add(RankingMetrics.averagePrecision(s.positive(), s.firstNegative()));
          aucs.add(RankingMetrics.rocAuc(s.positive(), s.firstNegative()));
          return Double.NaN;
        });
    return new double[] {mean(aps), mean(aucs)};
  }

  /**
   * Tests the parameters of checkpoint {@code epoch}: memory reset, replay of training and
   * validation events, then scoring of the test events with {@code evalNegatives} negatives each.
   */
  public TestMetrics test(RunDirectory dir, int epoch) {
    long t0 = System.nanoTime();
    Checkpoint.load(dir.checkpoint(epoch), session.model(), null, null);
    session.model().eval();
    session.resetTime();
    walk(
        "replay",
        0,
        0,
        split.valEnd(),
        0,
        REPLAY,
        (batch, stream) -> {
          step.replay(batch, stream);
          return Double.NaN;
        });
    int k = Math.max(1, config.train().evalNegatives());
    boolean[] seen = split.seenInTraining(run.events());
    int[] src = run.events().sources();
    int[] dst = run.events().destinations();
    List<Double> aps = new ArrayList<>();
    List<Double> aucs = new ArrayList<>();
    double[] mrrSum = {0};
    FloatList newPos = new FloatList();
    FloatList newNeg = new FloatList();
    long events =
        walk(
            "test",
            0,
            split.valEnd(),
            split.eventCount(),
            k,
            TEST,
            (batch, stream) -> {
              BatchScores s = evaluateInGroups(batch, stream);
              float[] firstNeg = s.firstNegative();
              aps.add(RankingMetrics.averagePrecision(s.positive(), firstNeg));
              aucs.add(RankingMetrics.rocAuc(s.positive(), firstNeg));
              mrrSum[0] +=
                  RankingMetrics.meanReciprocalRank(s.positive(), s.negative()) * batch.size();
              for (int i = 0; i < batch.size(); i++) {
                int e = batch.start() + i;
                if (!seen[src[e]] || !seen[dst[e]]) {
                  newPos.add(s.positive()[i]);
                  newNeg.add(firstNeg[i]);
                }
              }
              return Double.NaN;
            });
    TestMetrics m =
        new TestMetrics(
            mean(aps),
            mean(aucs),
            mrrSum[0] / Math.max(1, events),
            k,
            RankingMetrics.averagePrecision(newPos.toArray(), newNeg.toArray()),
            events,
            newPos.size(),
            (System.nanoTime() - t0) / 1e9);
    for (TrainingListener l : listeners) {
      l.testFinished(m);
    }
    return m;
  }

  /**
   * Scores a batch with many negatives in groups of at most {@link #NEGATIVE_GROUP}, so that a
   * forward pass never holds more than {@code (2 + NEGATIVE_GROUP) B} roots; memory is read-only
   * until the last group writes it, so the scores equal those of one pass with all negatives.
   */
  private BatchScores evaluateInGroups(Batch batch, long stream) {
    int b = batch.size();
    int k = batch.negativesPerEvent();
    if (k <= NEGATIVE_GROUP) {
      return step.evaluate(batch, stream);
    }
    float[] negative = new float[k * b];
    float[] positive = null;
    int[] roots = batch.roots();
    for (int first = 0; first < k; first += NEGATIVE_GROUP) {
      int count = Math.min(NEGATIVE_GROUP, k - first);
      int[] neg = java.util.Arrays.copyOfRange(roots, (2 + first) * b, (2 + first + count) * b);
      Batch group = Batch.of(run.events(), batch.index(), batch.start(), batch.end(), neg);
      BatchScores s = step.evaluate(group, stream, first + count == k);
      System.arraycopy(s.negative(), 0, negative, first * b, count * b);
      if (positive == null) {
        positive = s.positive();
      }
    }
    return new BatchScores(positive, negative);
  }

  /** What a phase does with one batch; returns the running loss for progress, or NaN. */
  private interface BatchAction {
    double apply(Batch batch, long stream);
  }

  /** Walks events {@code [from, to)} in TGL-aligned batches with {@code k} negatives per event. */
  private long walk(
      String phase, int epoch, int from, int to, int k, long phaseKey, BatchAction action) {
    List<int[]> bounds = session.bounds(from, to);
    for (TrainingListener l : listeners) {
      l.phaseStarted(phase, epoch, to - from);
    }
    long done = 0;
    for (int i = 0; i < bounds.size(); i++) {
      int start = bounds.get(i)[0];
      int end = bounds.get(i)[1];
      int b = end - start;
      Batch batch = session.batch(i, start, end, k, phaseKey, epoch);
      double loss = action.apply(batch, RandomStreams.derive(run.seed(), phaseKey, epoch, start));
      done += b;
      for (TrainingListener l : listeners) {
        l.batchFinished(phase, done, loss);
      }
    }
    for (TrainingListener l : listeners) {
      l.phaseFinished(phase);
    }
    return done;
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  @Override
  public void close() {
    session.close();
  }

  /** A growable float array. */
  private static final class FloatList {
    private float[] values = new float[64];
    private int size;

    void add(float v) {
      if (size == values.length) {
        values = java.util.Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    int size() {
      return size;
    }

    float[] toArray() {
      return java.util.Arrays.copyOf(values, size);
    }
  }
}
