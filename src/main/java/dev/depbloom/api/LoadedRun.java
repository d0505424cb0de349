package dev.depbloom.api;

import dev.depbloom.data.InputException;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.sampling.SamplerConfig;
import dev.depbloom.step.BatchPlanner;
import dev.depbloom.step.Replica;
import dev.depbloom.step.SessionSpec;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.TensorRuntime;
import dev.depbloom.train.Checkpoint;
import dev.depbloom.train.RunDirectory;
import dev.depbloom.train.SavedRun;
import dev.depbloom.train.TrainingRun;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What a served run is and never changes while it is served: the run rebuilt from its folder (data,
 * split, config, seed, thread budget), its best epoch's parameters in an evaluation-mode replica,
 * the planner and the sampling it was trained with.
 */
final class LoadedRun implements AutoCloseable {
  final SavedRun saved;
  final TrainingRun run;
  final SessionSpec spec;
  final ModelConfig config;
  final Replica replica;
  final BatchPlanner planner;
  final SamplerConfig sampling; // null for models that read no neighbors
  final int bestEpoch;
  final int workers;
  final int maxNewNodes;
  final double timeHorizon; // how far beyond the newest observed event a time may lie
  final long idBound; // node ids lie in [0, idBound)

  private LoadedRun(SavedRun saved, int bestEpoch, PredictorOptions options) {
    this.saved = saved;
    this.run = saved.run();
    this.spec = run.session();
    this.config = run.model();
    this.bestEpoch = bestEpoch;
    this.workers = options.workers() > 0 ? options.workers() : run.threads().workers();
    this.maxNewNodes = options.maxNewNodes();
    this.timeHorizon =
        Double.isNaN(options.timeHorizon()) ? trainingSpan(run) : options.timeHorizon();
    this.idBound = options.idBound() > 0 ? options.idBound() : defaultIdBound(run, maxNewNodes);
    TensorRuntime.applyThreads(run.threads()); // one worker's budget, as the test pass runs
    this.replica = TrainingSession.newReplica(spec, RankDevice.CPU);
    this.planner = new BatchPlanner(config);
    this.sampling =
        config.sampling().enabled() ? TrainingSession.samplerConfig(spec).withThreads(1) : null;
  }

  /**
   * The default time horizon: the training events' span, first to last (at least one time unit). A
   * served stream continues the data, so a gap between events as long as all of training is already
   * far outside what the model was trained on, yet a clock that merely runs on for days is not
   * refused; a time in the wrong unit (milliseconds for seconds) or a sentinel (1e308) is.
   */
  static double trainingSpan(TrainingRun run) {
    int end = run.split().trainEnd();
    double[] t = run.events().times();
    return end < 2 ? 1 : Math.max(1, t[end - 1] - t[0]);
  }

  /**
   * The default id space's end: twice the run's largest id plus one, and at least room for {@code
   * maxNewNodes} ids beyond it. Data sets number their nodes densely (TGL, JODIE, DyGLib) or
   * sparsely but bounded (SNAP), and new nodes continue the numbering; a huge or negative id is
   * junk, refused before it takes one of the new-node rows.
   */
  static long defaultIdBound(TrainingRun run, int maxNewNodes) {
    var ids = run.events().nodeIds();
    long largest = ids.size() == 0 ? -1 : ids.originalId(ids.size() - 1);
    return Math.max(2 * (largest + 1), largest + 1 + maxNewNodes);
  }

  /** The run in {@code runDir}, its best checkpoint's parameters loaded. */
  static LoadedRun open(Path runDir, PredictorOptions options) {
    RunDirectory dir = RunDirectory.open(runDir);
    int best = dir.peekState().bestEpoch();
    if (best == 0) {
      throw new InputException(runDir + ": the run has no completed epoch to serve");
    }
    LoadedRun loaded = new LoadedRun(SavedRun.open(dir, options.data()), best, options);
    try {
      Checkpoint.load(dir.checkpoint(best), loaded.replica.model(), null, List.of());
      loaded.replica.model().eval();
      return loaded;
    } catch (RuntimeException e) {
      loaded.close();
      throw e;
    }
  }

  boolean hasMemory() {
    return config.memory().enabled();
  }

  /** The run's data's nodes. */
  int nodeCount() {
    return run.events().nodeCount();
  }

  /** Events of the run's data that precede the test events: training and validation. */
  int historyEvents() {
    return run.split().valEnd();
  }

  /** Memory rows a served stream has: the data's nodes, the new ones allowed, the blank row. */
  int capacity() {
    return nodeCount() + maxNewNodes + 1;
  }

  /** A fresh memory store of one view of {@link #capacity()} rows, or none without memory. */
  MemoryStore freshMemory() {
    return hasMemory() ? TrainingSession.memoryStore(spec, 1, capacity()) : MemoryStore.none();
  }

  int batchSize() {
    return config.train().batchSize();
  }

  /**
   * The time of the data's first event: a data time {@code t} is {@code t - origin} for the run.
   */
  double timeOrigin() {
    return saved.timeOrigin();
  }

  /**
   * The memory the best epoch's validation left (the continued protocol's), in a store of one view
   * of {@code rows} rows; rows beyond the data's nodes are fresh.
   */
  MemoryStore checkpointMemory(int rows) {
    MemoryStore memory = TrainingSession.memoryStore(spec, 1, rows);
    int viewCount = run.schedule().memoryViews();
    int view = run.schedule().validationView();
    try (MemoryStore views = TrainingSession.memoryStore(spec, viewCount, nodeCount())) {
      Checkpoint.load(saved.dir().checkpoint(bestEpoch), replica.model(), null, views.views());
      int[] all = new int[nodeCount()];
      Arrays.setAll(all, i -> i);
      memory.view(0).copyRows(views.view(view), all, all);
      return memory;
    } catch (RuntimeException e) {
      memory.close();
      throw e;
    }
  }

  @Override
  public void close() {
    replica.close();
  }
}
