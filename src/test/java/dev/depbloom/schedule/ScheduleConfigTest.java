package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.model.config.ConfigException;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.train.RunConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schedule section: defaults, how devices and DistTGL's i x k resolve, errors naming keys. */
class ScheduleConfigTest {
  private static ScheduleConfig schedule(Map<String, String> overrides) {
    return RunConfig.zoo("tgn", overrides).schedule();
  }

  /** The schedule of a depbloom config. */
  private static ScheduleConfig.DepBloom depbloom(Map<String, String> overrides) {
    return (ScheduleConfig.DepBloom) schedule(overrides);
  }

  @Test
  void theDefaultIsSequentialOnOneDevice() {
    assertEquals(ScheduleConfig.SEQUENTIAL, schedule(Map.of()));
  }

  @Test
  void disttglSplitsItsDevicesIntoMemoryGroups() {
    ScheduleConfig c =
        schedule(
            Map.of(
                "schedule.name", "disttgl",
                "schedule.devices", "8",
                "schedule.memory_parallelism", "2"));
    assertEquals(ScheduleConfig.disttgl(4, 2, true), c);
    ScheduleConfig j =
        schedule(
            Map.of(
                "schedule.name", "disttgl",
                "schedule.devices", "8",
                "schedule.epoch_parallelism", "2",
                "schedule.memory_parallelism", "2"));
    assertEquals(ScheduleConfig.disttgl(2, 2, 2, true), j, "i = G / (j k)");
    assertEquals(8, j.devices());
    assertEquals(2, j.epochParallelism());
    assertEquals(8e-4, c.learningRate(1e-4), 1e-12);
    assertEquals(
        ScheduleConfig.disttgl(3, 2, true),
        schedule(
            Map.of(
                "schedule.name", "disttgl",
                "schedule.minibatch_parallelism", "3",
                "schedule.memory_parallelism", "2")));
    assertEquals(
        1e-4,
        schedule(
                Map.of(
                    "schedule.name",
                    "disttgl",
                    "schedule.devices",
                    "4",
                    "schedule.scale_lr",
                    "false"))
            .learningRate(1e-4));
  }

  @Test
  void inconsistentDevicesAreErrorsNamingTheKey() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "disttgl",
                        "schedule.devices", "8",
                        "schedule.memory_parallelism", "3")));
    assertEquals(
        "model tgn: schedule.devices: 8 logical devices cannot be split into memory_parallelism 3"
            + " groups of equal size",
        e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "disttgl",
                        "schedule.devices", "8",
                        "schedule.minibatch_parallelism", "2")));
    assertEquals(
        "model tgn: schedule.devices: disttgl runs minibatch_parallelism x memory_parallelism ="
            + " 2 x 1 = 2 devices, not 8",
        e.getMessage());
    e = assertThrows(ConfigException.class, () -> schedule(Map.of("schedule.devices", "4")));
    assertEquals(
        "model tgn: schedule.devices: the sequential schedule runs on one logical device; use"
            + " --schedule disttgl or depbloom for more",
        e.getMessage());
    e = assertThrows(ConfigException.class, () -> schedule(Map.of("schedule.name", "ring")));
    assertEquals(
        "model tgn: schedule.name: expected one of [sequential, disttgl, depbloom], got 'ring'",
        e.getMessage());
  }

  @Test
  void theResolvedScheduleSurvivesTheConfigFile() {
    RunConfig c =
        RunConfig.zoo(
            "apan",
            Map.of(
                "schedule.name",
                "disttgl",
                "schedule.devices",
                "4",
                "schedule.memory_parallelism",
                "2"));
    assertEquals(c, RunConfig.parse(c.toYaml(), "written", "apan", Map.of()));
  }

  @Test
  void depbloomLocalRunsOneChainADeviceWithItsMicroBatches() {
    ScheduleConfig.DepBloom c =
        depbloom(
            Map.of(
                "schedule.name",
                "depbloom",
                "schedule.devices",
                "8",
                "schedule.micro_batches",
                "4"));
    assertEquals(ScheduleConfig.DepBloom.Placement.LOCAL, c.placement(), "the default");
    assertEquals(8, c.chains());
    assertEquals(4, c.microBatches());
    assertEquals(8, c.devices());
    assertEquals(true, c.needsProfile(), "window and partitioner are still open");
    ScheduleConfig.DepBloom open =
        depbloom(Map.of("schedule.name", "depbloom", "schedule.devices", "4"));
    assertEquals(4, open.chains());
    assertEquals(1, open.microBatches(), "k is 1 unless set");
    RunConfig m =
        RunConfig.zoo(
            "tgn",
            Map.of(
                "schedule.name", "depbloom",
                "schedule.window", "6000",
                "schedule.partitioner", "contiguous",
                "schedule.chains", "2",
                "schedule.micro_batches", "4"));
    assertEquals(2, m.schedule().devices());
    assertEquals(m, RunConfig.parse(m.toYaml(), "written", "tgn", Map.of()));
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "depbloom",
                        "schedule.devices", "8",
                        "schedule.chains", "2")));
    assertEquals(
        "model tgn: schedule.devices: depbloom with placement local runs memory_parallelism x"
            + " chains = 1 x 2 = 2 devices (each chain's micro-batches on its one device), not 8;"
            + " set schedule.placement: spread for one micro-batch a device",
        e.getMessage());
  }

  @Test
  void depbloomResolvesChainsAndMicroBatchesFromTheDevicesAndLeavesTheRestToTheProfile() {
    ScheduleConfig.DepBloom c =
        depbloom(
            Map.of(
                "schedule.name", "depbloom",
                "schedule.placement", "spread",
                "schedule.devices", "8",
                "schedule.chains", "2"));
    assertEquals(2, c.chains());
    assertEquals(4, c.microBatches());
    assertEquals(8, c.devices());
    assertEquals(2, c.memoryViews());
    assertEquals(true, c.needsProfile(), "window and partitioner are still open");
    ScheduleConfig.DepBloom open =
        depbloom(
            Map.of(
                "schedule.name", "depbloom",
                "schedule.placement", "spread",
                "schedule.devices", "4"));
    assertEquals(4, open.devices());
    assertEquals(0, open.chains());
    ScheduleConfig all =
        schedule(
            Map.of(
                "schedule.name", "depbloom",
                "schedule.window", "6000",
                "schedule.partitioner", "topology",
                "schedule.chains", "2",
                "schedule.micro_batches", "2",
                "schedule.refine", "false"));
    assertEquals(
        ScheduleConfig.depbloom(1, 6000, PartitionerKind.TOPOLOGY, 2, 2, false, true, true), all);
    assertEquals(false, all.needsProfile());
    ScheduleConfig.DepBloom auto =
        depbloom(
            Map.of(
                "schedule.name", "depbloom",
                "schedule.placement", "spread",
                "schedule.devices", "4",
                "schedule.chains", "2",
                "schedule.window", "6000",
                "schedule.auto", "true"));
    assertEquals(0, auto.chains());
    assertEquals(0, auto.window());
    assertEquals(4, auto.devices());
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "depbloom",
                        "schedule.placement", "spread",
                        "schedule.devices", "8",
                        "schedule.chains", "3")));
    assertEquals(
        "model tgn: schedule.chains: 8 logical devices are not a multiple of 3", e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () -> schedule(Map.of("schedule.name", "depbloom", "schedule.partitioner", "metis")));
    assertEquals(
        "model tgn: schedule.partitioner: expected one of [contiguous, topology], got 'metis'",
        e.getMessage());
  }

  @Test
  void depbloomMemoryGroupsSplitTheDevicesBeforeChainsAndMicroBatches() {
    ScheduleConfig.DepBloom c =
        depbloom(
            Map.of(
                "schedule.name", "depbloom",
                "schedule.placement", "spread",
                "schedule.devices", "8",
                "schedule.memory_parallelism", "2",
                "schedule.chains", "2"));
    assertEquals(2, c.memoryParallelism());
    assertEquals(2, c.chains());
    assertEquals(2, c.microBatches());
    assertEquals(4, c.devicesPerGroup());
    assertEquals(8, c.devices());
    assertEquals(4, c.memoryViews(), "2 groups x 2 chains");
    ScheduleConfig resolved = c.resolvedWith(6000, PartitionerKind.TOPOLOGY, 9, 9);
    assertEquals(
        ScheduleConfig.depbloom(2, 6000, PartitionerKind.TOPOLOGY, 2, 2, true, true, true)
            .withPlacement(ScheduleConfig.DepBloom.Placement.SPREAD),
        resolved);
    RunConfig m =
        RunConfig.zoo(
            "tgn",
            Map.of(
                "schedule.name", "depbloom",
                "schedule.memory_parallelism", "2",
                "schedule.window", "6000",
                "schedule.partitioner", "topology",
                "schedule.chains", "2",
                "schedule.micro_batches", "1"));
    assertEquals(4, m.schedule().devices());
    assertEquals(m, RunConfig.parse(m.toYaml(), "written", "tgn", Map.of()));
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "depbloom",
                        "schedule.devices", "8",
                        "schedule.memory_parallelism", "3")));
    assertEquals(
        "model tgn: schedule.memory_parallelism: 8 logical devices cannot be split into 3 memory"
            + " groups",
        e.getMessage());
  }

  @Test
  void prefillIsADepbloomOptionOverContiguousChains() {
    ScheduleConfig.DepBloom p =
        depbloom(
            Map.of(
                "schedule.name", "depbloom", "schedule.devices", "4", "schedule.prefill", "true"));
    assertEquals(true, p.prefill());
    assertEquals("contiguous", p.partitioner().label(), "an unset partitioner becomes contiguous");
    RunConfig m =
        RunConfig.zoo(
            "tgn",
            Map.of(
                "schedule.name", "depbloom",
                "schedule.devices", "4",
                "schedule.window", "6000",
                "schedule.chains", "4",
                "schedule.prefill", "true"));
    assertEquals(m, RunConfig.parse(m.toYaml(), "written", "tgn", Map.of()));
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of(
                        "schedule.name", "depbloom",
                        "schedule.devices", "4",
                        "schedule.partitioner", "topology",
                        "schedule.prefill", "true")));
    assertEquals(
        "model tgn: schedule.prefill: prefill replays the chains before each chain, so it needs"
            + " contiguous chains; set schedule.partitioner: contiguous or leave it unset",
        e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () -> schedule(Map.of("schedule.name", "disttgl", "schedule.prefill", "true")));
    assertEquals(
        "model tgn: schedule.prefill: prefill is a depbloom option; use --schedule depbloom",
        e.getMessage());
  }
}
