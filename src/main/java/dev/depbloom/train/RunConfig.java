package dev.depbloom.train;

import dev.depbloom.model.config.ConfigReader;
import dev.depbloom.model.config.ConfigWriter;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.model.config.ModelZoo;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.schedule.ScheduleSection;
import java.nio.file.Path;
import java.util.Map;

/**
 * A run's config: the model (TGL's four sections) and how its training is spread over logical
 * devices (the {@code schedule} section), read from and written to one file, {@code config.yml},
 * which reads back to the same record.
 */
public record RunConfig(ModelConfig model, ScheduleConfig schedule) {
  /** The model's name. */
  public String name() {
    return model.name();
  }

  /** Reads a YAML file ({@link ConfigReader}), with overrides {@code section.key=value}. */
  public static RunConfig read(Path file, String name, Map<String, String> overrides) {
    return of(ConfigReader.read(file, name, overrides, ScheduleSection::read));
  }

  /** Parses YAML text; {@code source} names it in error messages. */
  public static RunConfig parse(
      String yaml, String source, String name, Map<String, String> overrides) {
    return of(ConfigReader.parse(yaml, source, name, overrides, ScheduleSection::read));
  }

  /** A shipped model's config ({@link ModelZoo}), with overrides. */
  public static RunConfig zoo(String model, Map<String, String> overrides) {
    return of(ModelZoo.config(model, overrides, ScheduleSection::read));
  }

  private static RunConfig of(ConfigReader.Parsed<ScheduleConfig> p) {
    return new RunConfig(p.model(), p.schedule());
  }

  /** This config with another model. */
  public RunConfig withModel(ModelConfig value) {
    return new RunConfig(value, schedule);
  }

  /** This config with another schedule. */
  public RunConfig withSchedule(ScheduleConfig value) {
    return new RunConfig(model, value);
  }

  /** The config as {@code config.yml} holds it: every key explicit, the schedule last. */
  public String toYaml() {
    StringBuilder y = new StringBuilder(ConfigWriter.toYaml(model));
    ScheduleSection.write(schedule, y);
    return y.toString();
  }
}
