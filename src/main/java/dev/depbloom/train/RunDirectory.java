package dev.depbloom.train;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.data.InputException;
import dev.depbloom.eval.TestMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A run's output folder:
 *
 * <ul>
 *   <li>{@code config.yml}: the resolved model config; {@code run.json}: seed, data, threads,
 *       versions, git revision;
 *   <li>{@code checkpoints/epoch-N.pt}: the last and the best epoch's checkpoints;
 *   <li>{@code state.json}: completed epochs with their metrics, last and best epoch. Written
 *       atomically after the epoch's checkpoint is in place, it is what {@code --resume} trusts;
 *   <li>{@code metrics.jsonl}: one JSON object per epoch (rebuilt from the state on resume); {@code
 *       test.json}: the final test metrics.
 * </ul>
 */
public final class RunDirectory {
  static final ObjectMapper JSON =
      new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  private final Path root;

  private RunDirectory(Path root) {
    this.root = root;
  }

  /** A new run folder; refuses to reuse a non-empty folder. */
  public static RunDirectory create(Path root) {
    try {
      if (Files.isDirectory(root)) {
        try (Stream<Path> s = Files.list(root)) {
          if (s.findAny().isPresent()) {
            throw new InputException(
                root
                    + ": output folder exists and is not empty; choose another --out, or continue"
                    + " it with --resume "
                    + root);
          }
        }
      }
      Files.createDirectories(root.resolve("checkpoints"));
      return new RunDirectory(root);
    } catch (IOException e) {
      throw new InputException(root + ": cannot create output folder: " + e.getMessage(), e);
    }
  }

  /** An existing run folder, for resuming or evaluating. */
  public static RunDirectory open(Path root) {
    if (!Files.isRegularFile(root.resolve("run.json"))
        || !Files.isRegularFile(root.resolve("config.yml"))) {
      throw new InputException(
          root + ": not a run folder (expected run.json and config.yml written by depbloom train)");
    }
    return new RunDirectory(root);
  }

  public Path root() {
    return root;
  }

  public Path configFile() {
    return root.resolve("config.yml");
  }

  public Path checkpoint(int epoch) {
    return root.resolve("checkpoints").resolve("epoch-" + epoch + ".pt");
  }

  public void writeConfig(String yaml) {
    writeAtomically(configFile(), yaml);
  }

  public void writeRunInfo(ObjectNode info) {
    writeJson(root.resolve("run.json"), info);
  }

  public JsonNode readRunInfo() {
    return readJson(root.resolve("run.json"));
  }

  /** Records a completed epoch: state first (atomic), then the metrics log line. */
  public void recordEpoch(List<EpochMetrics> history, int bestEpoch) {
    ObjectNode state = JSON.createObjectNode();
    EpochMetrics last = history.get(history.size() - 1);
    state.put("lastEpoch", last.epoch());
    state.put("bestEpoch", bestEpoch);
    ArrayNode epochs = state.putArray("epochs");
    for (EpochMetrics e : history) {
      epochs.add(JSON.valueToTree(MetricsLine.of(e)));
    }
    writeJson(root.resolve("state.json"), state);
    appendLine(root.resolve("metrics.jsonl"), MetricsLine.of(last));
    prune(last.epoch(), bestEpoch);
  }

  /** The completed epochs of a run, from its state file; rewrites the metrics log to match. */
  public ResumeState readState() {
    return readState(true);
  }

  /**
   * The completed epochs of a run without writing anything (the other ranks of a multi-process run,
   * which leave the folder to rank 0).
   */
  public ResumeState peekState() {
    return readState(false);
  }

  private ResumeState readState(boolean rewriteLog) {
    Path file = root.resolve("state.json");
    if (!Files.isRegularFile(file)) {
      return new ResumeState(List.of(), 0, 0);
    }
    JsonNode state = readJson(file);
    List<EpochMetrics> history = new ArrayList<>();
    StringBuilder log = new StringBuilder();
    for (JsonNode e : state.get("epochs")) {
      history.add(MetricsLine.parse(e));
      log.append(e.toString()).append('\n');
    }
    if (rewriteLog) {
      writeAtomically(root.resolve("metrics.jsonl"), log.toString());
    }
    return new ResumeState(history, state.get("lastEpoch").asInt(), state.get("bestEpoch").asInt());
  }

  /** Completed epochs, and the last and best epoch numbers (0 when none). */
  public record ResumeState(List<EpochMetrics> history, int lastEpoch, int bestEpoch) {}

  public void writeTest(TestMetrics test) {
    Map<String, Object> m = new LinkedHashMap<>(test.metrics());
    m.put("testEvents", test.events());
    m.put("testNewNodeEvents", test.newNodeEvents());
    m.put("testSeconds", test.seconds());
    m.put("testStageSeconds", test.stageSeconds());
    writeJson(root.resolve("test.json"), JSON.valueToTree(m));
  }

  private void prune(int lastEpoch, int bestEpoch) {
    try (Stream<Path> files = Files.list(root.resolve("checkpoints"))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        if (name.startsWith("epoch-")
            && !p.equals(checkpoint(lastEpoch))
            && !p.equals(checkpoint(bestEpoch))) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prune old checkpoints in " + root, e);
    }
  }

  private static void writeJson(Path file, JsonNode node) {
    try {
      writeAtomically(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode readJson(Path file) {
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(file + ": unreadable (" + e.getMessage() + ")", e);
    }
  }

  private static void appendLine(Path file, Object value) {
    try {
      Files.writeString(
          file,
          JSON.writeValueAsString(value) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  static void writeAtomically(Path file, String text) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
