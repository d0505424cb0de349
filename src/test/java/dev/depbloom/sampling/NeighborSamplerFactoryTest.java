package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.TinyStreams;
import java.util.List;
import org.junit.jupiter.api.Test;

class NeighborSamplerFactoryTest {
  private static final TemporalCsr HAND = TemporalCsr.build(TinyStreams.handBuilt(), true);

  @Test
  void buildsTheRecentSamplerWithTheConfiguredFanouts() {
    SamplerConfig config = SamplerConfig.of(SamplingStrategy.RECENT, List.of(2, 2));
    try (NeighborSampler sampler = NeighborSamplerFactory.create(config, HAND)) {
      assertInstanceOf(RecentNeighborSampler.class, sampler);
      TemporalSample sample = sampler.sample(new int[] {1}, new double[] {7}, 0);
      assertEquals(2, sample.layers().size());
      assertArrayEquals(new int[] {1, 3, 3, 6}, sample.layers().get(1).edgeIds());
    }
  }

  @Test
  void buildsTheUniformSamplerWithSnapshotsThreadsAndSeed() {
    SamplerConfig config =
        SamplerConfig.of(SamplingStrategy.UNIFORM, List.of(3, 2))
            .withSnapshots(3, 1)
            .withThreads(2)
            .withSeed(7);
    try (NeighborSampler sampler = NeighborSamplerFactory.create(config, HAND);
        NeighborSampler direct =
            new UniformNeighborSampler(HAND, new int[] {3, 2}, new SnapshotWindows(3, 1), 1, 7)) {
      assertInstanceOf(UniformNeighborSampler.class, sampler);
      int[] roots = {0, 1, 2, 3};
      double[] times = {5.5, 7, 10, 6};
      NeighborSamplerContract.assertSameSample(
          direct.sample(roots, times, 4), sampler.sample(roots, times, 4));
      assertEquals(3, sampler.sample(roots, times, 4).snapshotCount());
    }
  }

  @Test
  void readsStrategyNamesAndListsTheExpectedOnesOnAMistake() {
    assertEquals(SamplingStrategy.RECENT, SamplingStrategy.fromConfigName("recent"));
    assertEquals(SamplingStrategy.UNIFORM, SamplingStrategy.fromConfigName("uniform"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SamplingStrategy.fromConfigName("Recent"));
    assertEquals(
        "unknown sampling strategy 'Recent', expected one of recent, uniform", e.getMessage());
  }

  @Test
  void rejectsAConfigWithoutLayersOrWithAZeroFanoutNamingTheField() {
    IllegalArgumentException empty =
        assertThrows(
            IllegalArgumentException.class,
            () -> SamplerConfig.of(SamplingStrategy.RECENT, List.of()));
    assertEquals("fanouts must list at least one layer", empty.getMessage());
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class,
            () -> SamplerConfig.of(SamplingStrategy.RECENT, List.of(10, 0)));
    assertEquals("fanouts[1] must be at least 1, got 0", zero.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> SamplerConfig.of(SamplingStrategy.UNIFORM, List.of(10)).withThreads(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> SamplerConfig.of(SamplingStrategy.UNIFORM, List.of(10)).withSnapshots(3, 0));
  }
}
