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
import dev.depbloom.train.Schedules;
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

  private LoadedRun(SavedRun saved, int bestEpoch, PredictorOptions options) {
    this.saved = saved;
    this.run = saved.run();
    this.spec = run.session();
    this.config = run.model();
    this.bestEpoch = bestEpoch;
    this.workers = options.workers() > 0 ? options.workers() : run.threads().workers();
    this.maxNewNodes = options.maxNewNodes();
    TensorRuntime.applyThreads(run.threads()); // one worker's budget, as the test pass runs
    this.replica = TrainingSession.newReplica(spec, RankDevice.CPU);
    this.planner = new BatchPlanner(config);
    this.sampling =
        config.sampling().enabled() ? TrainingSession.samplerConfig(spec).withThreads(1) : null;
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
    int view =
        Schedules.of(run.schedule(), run.events(), run.split(), batchSize()).validationView();
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
