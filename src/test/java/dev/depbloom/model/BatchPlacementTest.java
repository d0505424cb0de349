package dev.depbloom.model;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.batch.Batch;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.Tensor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU build builds each batch on the host and places it beside the replica ({@link
 * RankDevice#place}, {@link BatchInputs#on}). No GPU is here: libtorch's {@code meta} device
 * (shapes without data) stands in for it, and every tensor of a placed batch must be there, for
 * every model. (A replica cannot be moved to {@code meta}: libtorch's {@code Module::to} swaps
 * parameter data in place, which it allows between the host and CUDA but not to {@code meta}.)
 */
@Tag(Kernels.TRAINS)
class BatchPlacementTest {
  private static final RankDevice META = new RankDevice("meta", RankDevice.Backend.GLOO);

  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan", "tgat", "dysat"})
  void everyTensorOfAPlacedBatchIsOnTheDevice(String model) {
    TrainingRun run =
        TinyStreams.tinyRun(
            TinyStreams.random(50, 700, 3, 17), model, 2, Map.of("sampling.duration", "60"));
    var config = run.model();
    try (TrainingSession host = new TrainingSession(run.session());
        StepScope scope = new StepScope()) {
      Batch batch = host.batch(3, 300, 400, 1, 7, 3);
      BatchGraph graph = host.planner().plan(batch, 3, host.sampler(0));
      var memory = host.memory().isNone() ? null : host.memory().view(0);
      boolean features = config.memory().combineNodeFeature();
      BatchInputs in = BatchInputs.fetch(graph, memory, run.events().features(), features).on(META);
      List<Tensor> all = tensors(in);
      assertTrue(all.size() >= 7, model + ": only " + all.size() + " tensors");
      for (Tensor t : all) {
        assertTrue(t.is_meta(), model + ": a tensor on " + t.device().str().getString());
      }
      if (memory != null) {
        BatchInputs shared =
            BatchInputs.fetchWithSharedUpdate(graph, memory, run.events().features(), features)
                .on(META)
                .withSharedUpdateOf(memory, META);
        assertTrue(shared.jodieDelta.is_meta(), model + ": JODIE's deltas of another memory");
        for (Tensor t : tensors(BatchInputs.forMemoryUpdate(graph.reads(), memory).on(META))) {
          assertTrue(t.is_meta(), model + ": a memory-update input");
        }
      }
    }
  }

  /** Every tensor the inputs hold. */
  private static List<Tensor> tensors(BatchInputs in) {
    List<Tensor> out = new ArrayList<>();
    if (in.memoryReads != null) {
      out.addAll(
          List.of(
              in.memoryReads.memory(),
              in.memoryReads.mail(),
              in.memoryReads.readNode(),
              in.memoryReads.sinceUpdate(),
              in.memoryReads.sinceMail()));
    }
    for (Tensor t : new Tensor[] {in.readNodeFeatures, in.rootReads, in.jodieDelta}) {
      if (t != null) {
        out.add(t);
      }
    }
    for (BatchInputs.SnapshotTensors s : in.snapshots) {
      if (s.nodeTable() != null) {
        out.add(s.nodeTable());
      }
      for (BatchInputs.LayerTensors l : s.layers()) {
        for (Tensor t :
            new Tensor[] {
              l.targetRows(),
              l.sourceIndex(),
              l.edgeFeatures(),
              l.edgeRow(),
              l.sinceEdge(),
              l.targetIndex(),
              l.slot()
            }) {
          if (t != null) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }

  @Test
  void theHostPlacesNothingAndCopiesNothingBack() {
    try (StepScope scope = new StepScope()) {
      Tensor t = Tensors.floats(new float[] {1, 2}, 2);
      assertSame(t, RankDevice.CPU.place(t));
      assertSame(t, Tensors.host(t));
      assertTrue(META.place(t).is_meta());
    }
  }
}
