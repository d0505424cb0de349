package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.model.config.ConfigException;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.schedule.depbloom.DepBloomConfig;
import dev.depbloom.schedule.disttgl.DistTglConfig;
import dev.depbloom.schedule.sequential.SequentialConfig;
import dev.depbloom.train.RunConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schedule section: defaults, how devices and DistTGL's i x k resolve, errors naming keys. */
class ScheduleConfigTest {
  private static ScheduleConfig schedule(Map<String, String> overrides) {
    return RunConfig.zoo("tgn", overrides).schedule();
  }

  /** The schedule of a depbloom config. */
  private static DepBloomConfig depbloom(Map<String, String> overrides) {
    return (DepBloomConfig) schedule(overrides);
  }

  @Test
  void theDefaultIsSequentialOnOneDevice() {
    assertEquals(SequentialConfig.DEFAULT, schedule(Map.of()));
  }

  @Test
  void disttglSplitsItsDevicesIntoMemoryGroups() {
    ScheduleConfig c =
        schedule(
            Map.of(
                "schedule.name", "disttgl",
                "schedule.devices", "8",
                "schedule.memory_parallelism", "2"));
    assertEquals(DistTglConfig.of(4, 2, true), c);
    ScheduleConfig j =
        schedule(
            Map.of(
                "schedule.name", "disttgl",
                "schedule.devices", "8",
                "schedule.epoch_parallelism", "2",
                "schedule.memory_parallelism", "2"));
    assertEquals(DistTglConfig.of(2, 2, 2, true), j, "i = G / (j k)");
    assertEquals(8, j.devices());
    assertEquals(2, j.epochParallelism());
    assertEquals(8e-4, c.learningRate(1e-4), 1e-12);
    assertEquals(
        DistTglConfig.of(3, 2, true),
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
        "model tgn: schedule.name: expected one of "
            + ScheduleFamilies.names()
            + ", got 'ring'", // the shipped three, and any family the test tree registers
        e.getMessage());
    assertTrue(ScheduleFamilies.names().containsAll(List.of("sequential", "disttgl", "depbloom")));
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
    DepBloomConfig c =
        depbloom(
            Map.of(
                "schedule.name",
                "depbloom",
                "schedule.devices",
                "8",
                "schedule.micro_batches",
                "4"));
    assertEquals(DepBloomConfig.Placement.LOCAL, c.placement(), "the default");
    assertEquals(8, c.chains());
    assertEquals(4, c.microBatches());
    assertEquals(8, c.devices());
    assertEquals(true, c.needsResolution(), "window and partitioner are still open");
    DepBloomConfig open = depbloom(Map.of("schedule.name", "depbloom", "schedule.devices", "4"));
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
    DepBloomConfig c =
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
    assertEquals(true, c.needsResolution(), "window and partitioner are still open");
    DepBloomConfig open =
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
        DepBloomConfig.of(1, 6000, PartitionerKind.TOPOLOGY, 2, 2, false, true, true), all);
    assertEquals(false, all.needsResolution());
    DepBloomConfig auto =
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
    DepBloomConfig c =
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
        DepBloomConfig.of(2, 6000, PartitionerKind.TOPOLOGY, 2, 2, true, true, true)
            .withPlacement(DepBloomConfig.Placement.SPREAD),
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
    DepBloomConfig p =
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
        "model tgn: schedule.prefill: a key of the depbloom schedule, not of disttgl; use"
            + " --schedule depbloom (or leave the key out)",
        e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () -> schedule(Map.of("schedule.name", "sequential", "schedule.window", "100")));
    assertTrue(
        e.getMessage().contains("schedule.window: a key of the depbloom schedule"), e.getMessage());
    e =
        assertThrows(
            ConfigException.class,
            () ->
                schedule(
                    Map.of("schedule.name", "depbloom", "schedule.minibatch_parallelism", "2")));
    assertTrue(
        e.getMessage().contains("schedule.minibatch_parallelism: a parallelism of disttgl"),
        e.getMessage());
  }
}
