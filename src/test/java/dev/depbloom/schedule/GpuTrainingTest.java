package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.depbloom.Kernels;
import dev.depbloom.tensor.RankDevice;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Training with the replica on a GPU ({@code cuda:0}) against the same run on the host: the same
 * losses, parameters and memory up to float rounding. Runs only in the GPU build on a machine with
 * a CUDA device ({@code mvn -Pgpu verify}); nothing here has one, so it has not run yet. Dropout is
 * off, though its masks are drawn on the host either way, and one worker keeps the device order.
 */
@EnabledIf("cudaPresent")
@Tag(Kernels.TRAINS)
class GpuTrainingTest {
  /** Only the GPU build asks CUDA for its devices: the CPU build must never load it. */
  static boolean cudaPresent() {
    return RankDevice.gpuBuild() && torch.cuda_device_count() > 0;
  }

  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan", "tgat", "dysat"})
  void aReplicaOnTheGpuTrainsAsOnTheHost(String model) {
    Map<String, String> o = new HashMap<>(Map.of("schedule.name", "sequential"));
    o.put("train.dropout", "0");
    o.put("train.att_dropout", "0");
    var run = ScheduleRuns.run(model, o, 1);
    ScheduleRuns.State host = ScheduleRuns.train(run, 2, null, RankDevice.CPU);
    ScheduleRuns.State gpu =
        ScheduleRuns.train(run, 2, null, new RankDevice("cuda:0", RankDevice.Backend.NCCL));
    List<Double> a = host.losses();
    List<Double> b = gpu.losses();
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertEquals(a.get(i), b.get(i), 1e-3 * Math.abs(a.get(i)), model + ": loss of round " + i);
    }
    assertArrayEquals(host.parameters(), gpu.parameters(), 1e-3f, model + ": parameters");
    assertArrayEquals(host.memory(), gpu.memory(), 1e-3f, model + ": memory");
    assertArrayEquals(host.memoryTimes(), gpu.memoryTimes(), model + ": memory times");
  }
}
