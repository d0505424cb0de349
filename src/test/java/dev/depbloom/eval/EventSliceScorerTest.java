package dev.depbloom.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.step.BatchScores;
import dev.depbloom.step.ScoredMemory;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.Scalar;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test pass scores a batch in slices of its events on several workers, writing memory after the
 * last slice: scores and memory equal those of one evaluation pass over the whole batch (up to
 * float rounding of differently shaped products), and the parallel path equals the sequential one
 * exactly.
 */
@Tag(Kernels.TRAINS)
class EventSliceScorerTest {
  private static final int NEGATIVES = 9;

  /** TGAT and DySAT draw uniform samples, whose keys decide the neighborhoods of the negatives. */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan", "jodie", "tgat", "dysat", "jodie+mail", "tgn+mail"})
  void slicesOnTwoWorkersScoreAndWriteAsOnePassOverTheWholeBatch(String model) {
    TrainingRun run = run(model);
    float[][] onePass = score(run, 0, 1);
    float[][] sliced = score(run, 7, 1);
    float[][] parallel = score(run, 7, 2);
    for (int a = 0; a < onePass.length; a++) {
      assertArrayEquals(onePass[a], sliced[a], 1e-5f, model + ": array " + a);
      assertArrayEquals(sliced[a], parallel[a], model + ": array " + a + ", two workers");
    }
  }

  /**
   * The slicing and the shared update's parts do not depend on the worker count: one worker scores
   * and writes bit for bit as two (so one process of two workers tests as two ranks of one).
   */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan", "jodie", "tgat", "dysat", "jodie+mail", "tgn+mail"})
  void oneWorkerScoresAndWritesBitForBitAsTwo(String model) {
    TrainingRun run = run(model);
    float[][] one = score(run, -1, 1);
    float[][] two = score(run, -1, 2);
    for (int a = 0; a < one.length; a++) {
      assertArrayEquals(one[a], two[a], model + ": array " + a);
    }
  }

  /**
   * The test scores its two protocols in one pass, sharing plans and the layers' edge and time
   * projections, and the memory updaters' time projections where the two memories' time deltas are
   * equal: each memory's scores and writes equal, bit for bit, those of scoring it alone. The
   * second memory is fresh (other deltas: nothing of the updater shared) or the first with its
   * values halved (equal deltas, other values: the updater's time projection shared).
   */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan", "jodie", "jodie+mail", "tgn+mail"})
  void twoMemoriesScoredSideBySideEqualEachScoredAlone(String model) {
    TrainingRun run = run(model);
    float[][] trained = scoreMemories(run, true, Other.NONE);
    for (Other other : List.of(Other.FRESH, Other.HALVED)) {
      float[][] alone = scoreMemories(run, false, other);
      float[][] both = scoreMemories(run, true, other);
      for (int a = 0; a < 4; a++) {
        assertArrayEquals(trained[a], both[a], model + ", " + other + ": first memory, array " + a);
        assertArrayEquals(alone[4 + a], both[4 + a], model + ", " + other + ": other, array " + a);
      }
      // the two memories must differ, or the test could not tell them apart
      assertFalse(Arrays.equals(both[0], both[4]), model + ", " + other + ": scored alike");
    }
  }

  /**
   * The test's replay runs its memory update in parts on the workers: the memory it writes equals
   * that of the one-worker replay ({@link dev.depbloom.step.ScoringStep#replay}) up to float
   * rounding, and is the same bit for bit on one worker as on two.
   */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan", "jodie", "jodie+mail", "tgn+mail"})
  void theReplayOnTheWorkersWritesAsTheOneWorkerReplay(String model) {
    TrainingRun run = run(model);
    float[][] alone = replay(run, 0);
    float[][] one = replay(run, 1);
    float[][] two = replay(run, 2);
    for (int a = 0; a < alone.length; a++) {
      assertArrayEquals(alone[a], one[a], 1e-5f, model + ": array " + a);
      assertArrayEquals(one[a], two[a], model + ": array " + a + ", two workers");
    }
    assertFalse(Arrays.equals(alone[0], new float[alone[0].length]), model + ": nothing written");
  }

  /**
   * Replays batches of 300 events (about 600 reads: two parts) over the first 600 events into a
   * fresh memory, on {@code workers} workers (0: {@link dev.depbloom.step.ScoringStep#replay}
   * alone); returns its memory and mail.
   */
  private static float[][] replay(TrainingRun run, int workers) {
    try (TrainingSession s = new TrainingSession(run.session());
        MemoryStore memory = s.freshMemory();
        EventSliceScorer scorer =
            new EventSliceScorer(s.step(), s.planner(), run.model(), Math.max(1, workers))) {
      s.replica().model().eval();
      for (int i = 0; i < 2; i++) {
        Batch batch = s.batch(i, 300 * i, 300 * i + 300, 0, 5, 0, 300 * i);
        if (workers == 0) {
          s.step().scoring().replay(s.planner().planWrite(batch, i, s.sampler(0)), memory, 0);
        } else {
          scorer.replay(batch, i, s.sampler(0), memory, 0);
        }
      }
      return new float[][] {
        Tensors.toFloats(memory.view(0).memoryTensor()),
        Tensors.toFloats(memory.view(0).mailboxTensor())
      };
    }
  }

  /** The second memory scored beside the session's. */
  private enum Other {
    NONE,
    FRESH,
    HALVED
  }

  /**
   * Scores batches 3 to 5 on two workers against the session's memory after batches 0 to 2 have
   * written it (if {@code trained}) and against {@code other}, both in one call; returns positive
   * scores, negative scores, memory and mail of each memory scored, the session's first.
   */
  private static float[][] scoreMemories(TrainingRun run, boolean trained, Other other) {
    try (TrainingSession s = new TrainingSession(run.session());
        MemoryStore second = s.freshMemory();
        EventSliceScorer scorer = new EventSliceScorer(s.step(), s.planner(), run.model(), 2)) {
      scorer.eventsPerPass(7);
      s.replica().model().eval();
      TestNegatives negatives = new TestNegatives(run.events(), run.seed());
      for (int i = 0; i < 3; i++) {
        Batch batch = negatives.batch(i, 100 * i, 100 * i + 100, NEGATIVES, 5, i);
        scorer.score(batch, i, s.sampler(0), s.memory(), 0, true);
      }
      if (other == Other.HALVED) {
        int[] all = java.util.stream.IntStream.range(0, run.events().nodeCount()).toArray();
        second.view(0).copyRows(s.memory().view(0), all, all);
        second.view(0).memoryTensor().mul_(new Scalar(0.5));
        second.view(0).mailboxTensor().mul_(new Scalar(0.5));
      }
      List<ScoredMemory> memories = new ArrayList<>();
      if (trained) {
        memories.add(new ScoredMemory(s.memory(), 0));
      }
      if (other != Other.NONE) {
        memories.add(new ScoredMemory(second, 0));
      }
      float[][] pos = new float[memories.size()][0];
      float[][] neg = new float[memories.size()][0];
      for (int i = 3; i < 6; i++) {
        Batch batch = negatives.batch(i, 100 * i, 100 * i + 100, NEGATIVES, 5, i);
        List<BatchScores> scores = scorer.score(batch, i, s.sampler(0), memories, true);
        for (int m = 0; m < memories.size(); m++) {
          pos[m] = concat(pos[m], scores.get(m).positive());
          neg[m] = concat(neg[m], scores.get(m).negative());
        }
      }
      float[][] out = new float[8][];
      for (int m = 0; m < memories.size(); m++) {
        int at = memories.get(m).store() == second ? 4 : 0;
        out[at] = pos[m];
        out[at + 1] = neg[m];
        out[at + 2] = Tensors.toFloats(memories.get(m).store().view(0).memoryTensor());
        out[at + 3] = Tensors.toFloats(memories.get(m).store().view(0).mailboxTensor());
      }
      return out;
    }
  }

  /** {@code model}, or {@code model+mail}: that model with memory {@code time_delta: mail}. */
  private static TrainingRun run(String model) {
    Map<String, String> overrides = new HashMap<>(Map.of("sampling.duration", "60"));
    if (model.endsWith("+mail")) {
      overrides.put("memory.time_delta", "mail");
    }
    return TinyStreams.tinyRun(
        TinyStreams.random(50, 700, 3, 17), model.replace("+mail", ""), 2, overrides);
  }

  /**
   * Positive scores, negative scores and final memory of batches 3 to 5; {@code eventsPerPass} 0
   * means one {@link dev.depbloom.step.ScoringStep#evaluate} pass per batch, negative the scorer's
   * own slicing. (In the first batches DySAT's oldest snapshot is empty for most roots, and an
   * attention layer without any sampled edge in its pass returns zeros, as TGL's does: a slice
   * could then differ from the whole batch.)
   */
  private static float[][] score(TrainingRun run, int eventsPerPass, int workers) {
    try (TrainingSession s = new TrainingSession(run.session());
        EventSliceScorer scorer =
            new EventSliceScorer(s.step(), s.planner(), run.model(), workers)) {
      scorer.eventsPerPass(Math.max(0, eventsPerPass));
      s.replica().model().eval();
      TestNegatives negatives = new TestNegatives(run.events(), run.seed());
      float[] pos = new float[0];
      float[] neg = new float[0];
      for (int i = 3; i < 6; i++) {
        Batch batch = negatives.batch(i, 100 * i, 100 * i + 100, NEGATIVES, 5, i);
        BatchScores scores =
            eventsPerPass == 0
                ? s.step()
                    .scoring()
                    .evaluate(s.planner().plan(batch, i, s.sampler(0)), s.memory(), 0, i, true)
                : scorer.score(batch, i, s.sampler(0), s.memory(), 0, true);
        pos = concat(pos, scores.positive());
        neg = concat(neg, scores.negative());
      }
      float[] memory =
          s.memory().isNone() ? new float[0] : Tensors.toFloats(s.memory().view(0).memoryTensor());
      float[] mail =
          s.memory().isNone() ? new float[0] : Tensors.toFloats(s.memory().view(0).mailboxTensor());
      return new float[][] {pos, neg, memory, mail};
    }
  }

  private static float[] concat(float[] a, float[] b) {
    float[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
