package dev.depbloom.step;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.ZeroFeatureMatrix;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.eval.RankingMetrics;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;

/**
 * Why memory models lose accuracy under TGL's test protocol: trains a model on Wikipedia (zero edge
 * features of width 172) with one worker, recording the parameters every training batch of the last
 * epoch used, then scores the validation events on four memories:
 *
 * <ol>
 *   <li>the memory training left (TGL's validation, the continued protocol);
 *   <li>the training events replayed, batch r with the parameters training batch r used;
 *   <li>the training events replayed with the final parameters (TGL's test protocol);
 *   <li>as 3, but the final parameters' replay written in training mode (dropout on).
 * </ol>
 *
 * If 2 reproduces 1 the replay path is faithful, and the gap between 1 and 3 comes from the
 * parameters moving during the epoch. Also prints how far the replayed memories are from 1's.
 *
 * <pre>
 * java -cp "target/classes:target/test-classes:target/lib/*" \
 *     dev.depbloom.step.ReplayDriftExperiment MODEL EPOCHS [key=value ...]
 * </pre>
 */
public final class ReplayDriftExperiment {
  private ReplayDriftExperiment() {}

  public static void main(String[] args) {
    String model = args[0];
    int epochs = Integer.parseInt(args[1]);
    Map<String, String> o = new HashMap<>();
    for (int i = 2; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      o.put(kv[0], kv[1]);
    }
    EventStream events = EmbeddedDatasets.wikipedia();
    events = events.withEdgeFeatures(new ZeroFeatureMatrix(events.eventCount(), 172));
    TrainingRun run =
        new TrainingRun(
            events,
            "wiki",
            Split.of(events),
            RunConfig.zoo(model, o),
            0,
            new ThreadBudget(1, 2, 1),
            2);
    TensorRuntime.applyThreads(run.threads());
    Split split = run.split();
    try (TrainingSession s = new TrainingSession(run.session());
        Steps steps = new Steps(s)) {
      List<int[]> train = s.bounds(0, split.trainEnd());
      List<int[]> val = s.bounds(split.trainEnd(), split.valEnd());
      List<float[][]> used = new ArrayList<>(); // last epoch: parameters of every batch
      for (int epoch = 1; epoch <= epochs; epoch++) {
        s.resetView(0);
        s.replica().model().train(true);
        for (int i = 0; i < train.size(); i++) {
          if (epoch == epochs) {
            used.add(parameters(s));
          }
          steps.train(i, train.get(i)[0], train.get(i)[1], epoch);
        }
      }
      float[][] last = parameters(s);
      float[] trainedMemory = memory(s);
      double continued = validate(s, steps, val);

      s.resetView(0);
      s.replica().model().eval();
      for (int i = 0; i < train.size(); i++) {
        load(s, used.get(i));
        steps.replay(s.batch(i, train.get(i)[0], train.get(i)[1], 0, 9, i), i);
      }
      load(s, last);
      float[] perBatchMemory = memory(s);
      double perBatch = validate(s, steps, val);

      s.resetView(0);
      for (int i = 0; i < train.size(); i++) {
        steps.replay(s.batch(i, train.get(i)[0], train.get(i)[1], 0, 9, i), i);
      }
      float[] finalMemory = memory(s);
      double replayed = validate(s, steps, val);

      s.resetView(0);
      s.replica().model().train(true);
      for (int i = 0; i < train.size(); i++) {
        steps.replay(s.batch(i, train.get(i)[0], train.get(i)[1], 0, 9, i), i);
      }
      double replayedTrainMode = validate(s, steps, val);

      System.out.printf(
          "%s, %d epochs %s: val AP on training's memory %.4f; replayed with each batch's"
              + " parameters %.4f (memory max |diff| %.2e); replayed with the final parameters"
              + " %.4f (max |diff| %.2e, mean |diff| %.2e); same in training mode %.4f%n",
          model,
          epochs,
          o,
          continued,
          perBatch,
          maxDiff(trainedMemory, perBatchMemory),
          replayed,
          maxDiff(trainedMemory, finalMemory),
          meanDiff(trainedMemory, finalMemory),
          replayedTrainMode);
    }
  }

  /** Mean of per-batch validation AP (TGL's), scoring in evaluation mode and writing memory. */
  private static double validate(TrainingSession s, Steps steps, List<int[]> val) {
    s.replica().model().eval();
    double sum = 0;
    for (int i = 0; i < val.size(); i++) {
      Batch b = s.batch(i, val.get(i)[0], val.get(i)[1], 1, 7, i);
      BatchScores scores = steps.evaluate(b, i);
      sum += RankingMetrics.averagePrecision(scores.positive(), scores.firstNegative());
    }
    return sum / val.size();
  }

  private static float[][] parameters(TrainingSession s) {
    try (StepScope scope = new StepScope()) {
      TensorVector p = s.replica().parameters();
      float[][] out = new float[(int) p.size()][];
      for (int i = 0; i < out.length; i++) {
        out[i] = Tensors.toFloats(p.get(i).detach().contiguous().view(-1));
      }
      return out;
    }
  }

  private static void load(TrainingSession s, float[][] values) {
    try (StepScope scope = new StepScope();
        NoGradGuard g = new NoGradGuard()) {
      TensorVector p = s.replica().parameters();
      for (int i = 0; i < values.length; i++) {
        Tensor t = p.get(i);
        t.copy_(Tensors.floats(values[i], values[i].length).view(t.sizes()));
      }
    }
  }

  private static float[] memory(TrainingSession s) {
    return Tensors.toFloats(s.memory().view(0).memoryTensor());
  }

  private static double maxDiff(float[] a, float[] b) {
    double m = 0;
    for (int i = 0; i < a.length; i++) {
      m = Math.max(m, Math.abs(a[i] - b[i]));
    }
    return m;
  }

  private static double meanDiff(float[] a, float[] b) {
    double m = 0;
    for (int i = 0; i < a.length; i++) {
      m += Math.abs(a[i] - b[i]);
    }
    return m / a.length;
  }
}
