package dev.depbloom.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schedule section: defaults, how devices and DistTGL's i x k resolve, errors naming keys. */
class ScheduleConfigTest {
  private static ScheduleConfig schedule(Map<String, String> overrides) {
    return ModelZoo.config("tgn", overrides).schedule();
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
    ModelConfig c =
        ModelZoo.config(
            "apan",
            Map.of(
                "schedule.name",
                "disttgl",
                "schedule.devices",
                "4",
                "schedule.memory_parallelism",
                "2"));
    assertEquals(c, ConfigReader.parse(ConfigWriter.toYaml(c), "written", "apan", Map.of()));
  }
}
