package dev.depbloom.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a model config from YAML: TGL's files load as they are (each section a list of one
 * mapping), and plain mappings work too. Overrides {@code section.key=value} are applied before
 * validation, so they get the same checks and error messages as the file.
 */
public final class ConfigReader {
  private static final Set<String> SECTIONS =
      Set.of("sampling", "memory", "gnn", "train", "schedule");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private ConfigReader() {}

  /**
   * A model config and the config of the {@code schedule} section of the same file, read by the
   * layer that knows schedules.
   */
  public record Parsed<S>(ModelConfig model, S schedule) {}

  /** Reads a YAML file's model (its {@code schedule} section, if any, is not read). */
  public static ModelConfig read(Path file, String name, Map<String, String> overrides) {
    return read(file, name, overrides, r -> null).model();
  }

  /** Reads a YAML file; {@code schedule} reads its {@code schedule} section. */
  public static <S> Parsed<S> read(
      Path file, String name, Map<String, String> overrides, Function<SectionReader, S> schedule) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + ": config file not found");
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read config file: " + e.getMessage());
    }
    return parse(text, file.toString(), name, overrides, schedule);
  }

  /**
   * Parses YAML text's model; {@code source} names it in error messages (its {@code schedule}
   * section, if any, is not read).
   */
  public static ModelConfig parse(
      String yaml, String source, String name, Map<String, String> overrides) {
    return parse(yaml, source, name, overrides, r -> null).model();
  }

  /**
   * Parses YAML text; {@code source} names it in error messages, {@code schedule} reads the {@code
   * schedule} section (after the model's four sections, before the rules across them are checked).
   */
  public static <S> Parsed<S> parse(
      String yaml,
      String source,
      String name,
      Map<String, String> overrides,
      Function<SectionReader, S> schedule) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new ConfigException(
          source
              + ": not valid YAML: "
              + e.getOriginalMessage()
              + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      root = JsonNodeFactory.instance.objectNode();
    }
    if (!root.isObject()) {
      throw new ConfigException(source + ": expected a mapping with sections " + SECTIONS);
    }
    ObjectNode sections = JsonNodeFactory.instance.objectNode();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!SECTIONS.contains(e.getKey())) {
        throw new ConfigException(
            source
                + ": "
                + e.getKey()
                + ": unknown section (known: sampling, memory, gnn, train, schedule)");
      }
      sections.set(e.getKey(), sectionNode(source, e.getKey(), e.getValue()));
    }
    for (String s : List.of("sampling", "memory", "gnn", "train", "schedule")) {
      if (!sections.has(s)) {
        sections.set(s, JsonNodeFactory.instance.objectNode());
      }
    }
    applyOverrides(sections, overrides);
    MemoryConfig memory = MemoryConfig.read(reader(source, "memory", sections));
    SamplingConfig sampling = SamplingConfig.read(reader(source, "sampling", sections));
    GnnConfig gnn = GnnConfig.read(reader(source, "gnn", sections), memory.dim());
    TrainConfig train = TrainConfig.read(reader(source, "train", sections));
    S scheduleConfig = schedule.apply(reader(source, "schedule", sections));
    ModelConfig config = new ModelConfig(name, sampling, memory, gnn, train);
    config.validate(source);
    return new Parsed<>(config, scheduleConfig);
  }

  private static SectionReader reader(String source, String section, ObjectNode sections) {
    return new SectionReader(source, section, (ObjectNode) sections.get(section));
  }

  /** TGL writes {@code section: [ {key: value, ...} ]}; a plain mapping is accepted as well. */
  private static ObjectNode sectionNode(String source, String name, JsonNode value) {
    if (value == null || value.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (value.isArray()) {
      if (value.size() != 1 || !value.get(0).isObject()) {
        throw new ConfigException(
            source + ": " + name + ": expected a mapping (or TGL's list of one mapping)");
      }
      return ((ObjectNode) value.get(0)).deepCopy();
    }
    if (!value.isObject()) {
      throw new ConfigException(source + ": " + name + ": expected a mapping of keys to values");
    }
    return ((ObjectNode) value).deepCopy();
  }

  private static void applyOverrides(ObjectNode sections, Map<String, String> overrides) {
    for (Map.Entry<String, String> o : overrides.entrySet()) {
      String path = o.getKey();
      int dot = path.indexOf('.');
      String section = dot > 0 ? path.substring(0, dot) : "";
      if (dot <= 0 || !SECTIONS.contains(section) || path.indexOf('.', dot + 1) >= 0) {
        throw new ConfigException(
            "--set "
                + path
                + ": expected section.key with section one of sampling, memory, gnn,"
                + " train, schedule");
      }
      ((ObjectNode) sections.get(section)).set(path.substring(dot + 1), parseScalar(o.getValue()));
    }
  }

  /** An override value as YAML would read it (numbers, booleans, lists), else text. */
  private static JsonNode parseScalar(String value) {
    try {
      JsonNode n = YAML.readTree(value);
      return n == null || n.isMissingNode() ? TextNode.valueOf(value) : n;
    } catch (JsonProcessingException e) {
      return TextNode.valueOf(value);
    }
  }
}
