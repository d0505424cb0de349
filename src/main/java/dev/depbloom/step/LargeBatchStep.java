package dev.depbloom.step;

import dev.depbloom.data.StreamFeatures;
import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.MemoryReader;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.memory.MemoryWrite;
import dev.depbloom.model.BatchGraph;
import dev.depbloom.model.BatchInputs;
import dev.depbloom.model.LargeBatch;
import dev.depbloom.model.ReadPlan;
import dev.depbloom.model.TemporalGnn;
import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.tensor.RankDevice;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;

/**
 * The training of a {@link DeviceStep.Task} that is a large batch of micro-batches on one device
 * ({@link LargeBatch}; DepBloom's local placement, docs/schedules.md "Placement"), for {@link
 * DeviceStep}, whose training pass and memory write it shares.
 */
final class LargeBatchStep {
  private final DeviceStep step;
  private final TemporalGnn model;
  private final StreamFeatures features;
  private final RankDevice device;

  LargeBatchStep(DeviceStep step, TemporalGnn model, StreamFeatures features, RankDevice device) {
    this.step = step;
    this.model = model;
    this.features = features;
    this.device = device;
  }

  /**
   * A large batch on this device (DepBloom's local refinement): micro-batch by micro-batch, its
   * memory update and its write, micro-batch {@code j} reading through the writes of {@code 0..j-1}
   * when the task refines (the overlay is the {@code refine} stage); then one training pass over
   * the concatenation. No wait for another task: the chain of memory updates is local.
   *
   * <p>The writes are detached, so micro-batch {@code j}'s update depends on the earlier ones only
   * through values: when the update is deterministic ({@link
   * TemporalGnn#memoryUpdateIsDeterministic}) the micro-batches update without gradient and the
   * training pass recomputes all their updates in one pass with gradient, so that its backward runs
   * the updater once over the {@code k * B} reads instead of {@code k} times (TGN, {@code k = 4}:
   * 117 fewer training kernels for 19 more, docs/schedules.md "Placement"). Otherwise (dropout in
   * the updater) each micro-batch's update keeps its gradient and the training pass takes them
   * concatenated, so that the memory written is the memory trained.
   */
  DeviceStep.Result train(DeviceStep.Task task, MemoryStore memory, StageTimer timer) {
    List<MemoryWrite> writes = new ArrayList<>();
    List<Tensor> updates = new ArrayList<>();
    List<BatchInputs> updateInputs = new ArrayList<>();
    ReadPlan reads = task.graph().reads(); // null for memory-less models: nothing to update
    boolean recompute = model.memoryUpdateIsDeterministic();
    double[] lastUpdate = new double[reads == null ? 0 : reads.readCount()];
    long memoryBytes = 0;
    int readsBefore = 0; // of the earlier micro-batches: where this one's start in the large batch
    for (BatchGraph part : reads == null ? List.<BatchGraph>of() : task.microBatches()) {
      List<MemoryWrite> earlier = List.copyOf(writes);
      ReadThrough.Overlay overlay =
          timer.time(
              Stage.REFINE,
              () -> task.readThrough().overlay(memory, task.view(), task.round(), earlier));
      try {
        MemoryReader read = overlay != null ? overlay : memory.view(task.view());
        int from = readsBefore;
        BatchInputs in =
            timer.time(
                Stage.FETCH,
                () -> {
                  memory.awaitReadable(task.view(), part.reads().distinctNodes(), task.round());
                  double[] times = BatchInputs.lastUpdates(part.reads(), read);
                  System.arraycopy(times, 0, lastUpdate, from, times.length);
                  return BatchInputs.forMemoryUpdate(part.reads(), read).on(device);
                });
        memoryBytes += in.memoryBytes();
        updateInputs.add(in);
        Tensor updated =
            timer.time(
                Stage.MEMORY_UPDATE,
                () -> {
                  if (!recompute) {
                    return model.updateMemory(in);
                  }
                  try (NoGradGuard noGrad = new NoGradGuard()) {
                    return model.updateMemoryWhole(in);
                  }
                });
        updates.add(updated);
        writes.add(timer.time(Stage.MEMORY_WRITE, () -> step.memoryWrite(part, updated, read)));
        readsBefore += part.reads().readCount();
      } finally {
        if (overlay != null) {
          overlay.close();
        }
      }
    }
    BatchInputs in =
        timer.time(
            Stage.FETCH,
            () ->
                BatchInputs.fetchLarge(
                        task.graph(),
                        lastUpdate,
                        features,
                        model.config().memory().combineNodeFeature())
                    .on(device));
    double[] loss = new double[1];
    Tensor[] gradients =
        timer.time(
            Stage.TRAIN,
            () -> {
              Tensor updated = null;
              if (reads != null) {
                updated =
                    recompute
                        ? model.updateMemoryWhole(
                            BatchInputs.concatMemoryUpdates(updateInputs, task.graph(), device))
                        : torch.cat(new TensorVector(updates.toArray(new Tensor[0])));
              }
              return step.trainPass(task, in, updated, loss);
            });
    List<DeviceWrite> out = new ArrayList<>(writes.size());
    for (MemoryWrite w : writes) {
      out.add(new DeviceWrite(task.device(), task.view(), w));
    }
    return new DeviceStep.Result(
        task, loss[0], gradients, out, System.nanoTime(), memoryBytes, in.hostBytes());
  }
}
