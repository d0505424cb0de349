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
  DeviceStep.Result train(DeviceStep.Task task, MemoryStore memory, StageClock clock) {
    Updates u = new Updates(task, model.memoryUpdateIsDeterministic());
    ReadPlan reads = task.graph().reads(); // null for memory-less models: nothing to update
    for (BatchGraph part : reads == null ? List.<BatchGraph>of() : task.microBatches()) {
      updateAndWrite(part, task, memory, clock, u);
    }
    BatchInputs in =
        clock.time(
            Stage.FETCH,
            () ->
                BatchInputs.fetchLarge(
                        task.graph(),
                        u.lastUpdate,
                        features,
                        model.config().memory().combineNodeFeature())
                    .on(device));
    double[] loss = new double[1];
    Tensor[] gradients =
        clock.time(
            Stage.TRAIN,
            () -> step.trainPass(task, in, reads == null ? null : trainedUpdate(task, u), loss));
    List<DeviceWrite> out = new ArrayList<>(u.writes.size());
    for (MemoryWrite w : u.writes) {
      out.add(new DeviceWrite(task.device(), task.view(), w));
    }
    return new DeviceStep.Result(
        task,
        loss[0],
        gradients,
        out,
        System.nanoTime(),
        u.memoryBytes,
        in.hostBytes(),
        in.repeatedEdgeFeatureBytes());
  }

  /** What the micro-batches' updates leave for the training pass, filled in micro-batch order. */
  private static final class Updates {
    final boolean recompute;
    final List<MemoryWrite> writes = new ArrayList<>();
    final List<Tensor> updated = new ArrayList<>();
    final List<BatchInputs> inputs = new ArrayList<>();
    final double[] lastUpdate; // per read of the large batch, in the memory its micro-batch read
    long memoryBytes;
    int readsBefore; // of the micro-batches so far: where the next one's start in the large batch

    Updates(DeviceStep.Task task, boolean recompute) {
      this.recompute = recompute;
      ReadPlan reads = task.graph().reads();
      this.lastUpdate = new double[reads == null ? 0 : reads.readCount()];
    }
  }

  /**
   * Micro-batch {@code part}: its reads through the earlier micro-batches' writes (the overlay,
   * stage {@code refine}), its memory update (without gradient when it is recomputed) and its
   * write.
   */
  private void updateAndWrite(
      BatchGraph part, DeviceStep.Task task, MemoryStore memory, StageClock clock, Updates u) {
    List<MemoryWrite> earlier = List.copyOf(u.writes);
    ReadThrough.Overlay overlay =
        clock.time(
            Stage.REFINE,
            () -> task.readThrough().overlay(memory, task.view(), task.round(), earlier));
    try {
      MemoryReader read = overlay != null ? overlay : memory.view(task.view());
      BatchInputs in =
          clock.time(
              Stage.FETCH,
              () -> {
                memory.awaitReadable(task.view(), part.reads().distinctNodes(), task.round());
                double[] times = BatchInputs.lastUpdates(part.reads(), read);
                System.arraycopy(times, 0, u.lastUpdate, u.readsBefore, times.length);
                return BatchInputs.forMemoryUpdate(part.reads(), read).on(device);
              });
      u.memoryBytes += in.memoryBytes();
      u.inputs.add(in);
      Tensor updated =
          clock.time(
              Stage.MEMORY_UPDATE,
              () -> {
                if (!u.recompute) {
                  return model.updateMemory(in);
                }
                try (NoGradGuard noGrad = new NoGradGuard()) {
                  return model.updateMemoryWhole(in);
                }
              });
      u.updated.add(updated);
      u.writes.add(clock.time(Stage.MEMORY_WRITE, () -> step.memoryWrite(part, updated, read)));
      u.readsBefore += part.reads().readCount();
    } finally {
      if (overlay != null) {
        overlay.close();
      }
    }
  }

  /**
   * The updated memory the training pass embeds from: the micro-batches' updates recomputed in one
   * pass with gradient, or (the updater not deterministic) theirs concatenated.
   */
  private Tensor trainedUpdate(DeviceStep.Task task, Updates u) {
    return u.recompute
        ? model.updateMemoryWhole(BatchInputs.concatMemoryUpdates(u.inputs, task.graph(), device))
        : torch.cat(new TensorVector(u.updated.toArray(new Tensor[0])));
  }
}
