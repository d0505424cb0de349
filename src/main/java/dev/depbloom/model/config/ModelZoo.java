package dev.depbloom.model.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The published models as shipped configurations. This is the only place a model's name is looked
 * at; everything downstream sees a {@link ModelConfig}.
 */
public final class ModelZoo {
  /**
   * Names of the shipped models: the five with TGL's published configurations, and {@code
   * tgn-wide}, TGN at DyGLib's widths with 8 neighbors.
   */
  public static final List<String> MODELS =
      List.of("jodie", "tgn", "apan", "tgat", "dysat", "tgn-wide");

  private ModelZoo() {}

  /** The shipped config of a model, with overrides applied (a {@code schedule} one is not read). */
  public static ModelConfig config(String model, Map<String, String> overrides) {
    return config(model, overrides, r -> null).model();
  }

  /**
   * The shipped config of a model, with overrides applied; {@code schedule} reads the {@code
   * schedule} section.
   */
  public static <S> ConfigReader.Parsed<S> config(
      String model, Map<String, String> overrides, Function<SectionReader, S> schedule) {
    String name = model.toLowerCase(Locale.ROOT);
    if (!MODELS.contains(name)) {
      throw new ConfigException("--model " + model + ": unknown model (known: " + MODELS + ")");
    }
    return ConfigReader.parse(yaml(name), "model " + name, name, overrides, schedule);
  }

  /** The shipped YAML text of a model. */
  public static String yaml(String model) {
    String resource = model + ".yml";
    try (InputStream in = ModelZoo.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing bundled config " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read bundled config " + resource, e);
    }
  }
}
