package dev.depbloom.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.InputException;
import org.junit.jupiter.api.Test;

/** The one place a rank's device and backend are chosen. */
class RankDeviceTest {
  @Test
  void theCpuBuildPutsEveryRankOnTheCpuWithGlooAndNeverAsksForCuda() {
    for (int localRank = 0; localRank < 4; localRank++) {
      RankDevice d =
          RankDevice.choose(
              localRank,
              false,
              () -> {
                throw new AssertionError("the CPU build must not touch CUDA");
              });
      assertEquals(new RankDevice("cpu", RankDevice.Backend.GLOO), d);
    }
  }

  @Test
  void theGpuBuildGivesEachLocalRankItsOwnGpuAndNccl() {
    assertEquals(
        new RankDevice("cuda:1", RankDevice.Backend.NCCL), RankDevice.choose(1, true, () -> 2));
    assertEquals(
        new RankDevice("cuda:0", RankDevice.Backend.NCCL), RankDevice.choose(0, true, () -> 1));
  }

  @Test
  void theGpuBuildWithFewerDevicesThanLocalRanksFailsNamingTheLocalRank() {
    InputException e =
        assertThrows(InputException.class, () -> RankDevice.choose(2, true, () -> 2));
    assertEquals(
        "LOCAL_RANK=2: the GPU build needs one CUDA device per local rank, and 2 are visible"
            + " (CUDA_VISIBLE_DEVICES, or start fewer ranks per node)",
        e.getMessage());
  }

  @Test
  void thisIsTheCpuBuildSoEveryLocalRankGetsTheCpu() {
    assertFalse(RankDevice.gpuBuild());
    assertEquals(RankDevice.CPU, RankDevice.forLocalRank(3));
  }
}
