package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.store.EventStoreReader;
import dev.depbloom.data.synthetic.SyntheticGraphConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GenerateCommandTest {
  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  private static SyntheticGraphConfig parse(String... args) {
    GenerateCommand command = new GenerateCommand();
    new CommandLine(command).parseArgs(args);
    return command.config();
  }

  @Test
  void writesAStoreWithTheRequestedShape() throws IOException {
    Path store = dir.resolve("g");
    int status =
        run(
            "generate",
            "--nodes",
            "500",
            "--events",
            "3000",
            "--edge-feature-dim",
            "4",
            "--seed",
            "3",
            store.toString());
    assertEquals(0, status, err.toString());
    EventStream events = EventStoreReader.read(store);
    assertEquals(3_000, events.eventCount());
    assertEquals(500, events.nodeCount());
    assertEquals(4, events.edgeFeatures().dim());
    assertTrue(
        out.toString().startsWith("wrote " + store + ": 3,000 events, 500 nodes ("),
        out.toString());
  }

  @Test
  void sameSeedWritesByteIdenticalStores() throws IOException {
    for (String name : List.of("a", "b")) {
      assertEquals(
          0,
          run(
              "generate",
              "--nodes",
              "300",
              "--events",
              "2000",
              "--edge-feature-dim",
              "2",
              "--seed",
              "11",
              dir.resolve(name).toString()));
    }
    for (String file :
        List.of(
            "src.i32",
            "dst.i32",
            "time.f64",
            "node_ids.i64",
            "edge_features.f32",
            "manifest.json")) {
      assertArrayEquals(
          Files.readAllBytes(dir.resolve("a").resolve(file)),
          Files.readAllBytes(dir.resolve("b").resolve(file)),
          file);
    }
  }

  @Test
  void existingStoreIsReplacedOnlyWithForce() throws IOException {
    Path store = dir.resolve("g");
    assertEquals(0, run("generate", "--nodes", "100", "--events", "500", store.toString()));
    assertEquals(
        Main.EXIT_INPUT_ERROR,
        run("generate", "--nodes", "100", "--events", "700", store.toString()));
    assertEquals(
        "depbloom: error: "
            + store.toAbsolutePath()
            + ": exists and is not empty; refusing to overwrite it (--force replaces a store)\n",
        err.toString());
    assertEquals(
        0, run("generate", "--nodes", "100", "--events", "700", "--force", store.toString()));
    assertEquals(700, EventStoreReader.read(store).eventCount());
  }

  @Test
  void invalidValueIsAnInputErrorNamingTheField() {
    assertEquals(
        Main.EXIT_INPUT_ERROR,
        run("generate", "--cross-community-share", "1.5", dir.resolve("g").toString()));
    assertEquals(
        "depbloom: error: synthetic graph: crossCommunityShare must be in [0, 1], got 1.5\n",
        err.toString());
    assertEquals(List.of(), List.of(dir.toFile().list()));
  }

  @Test
  void presetSetsTheSizesAndExplicitOptionsOverrideIt() {
    SyntheticGraphConfig wiki = parse("--preset", "wikipedia-size", "out");
    assertEquals(9_227, wiki.nodes());
    assertEquals(157_474, wiki.events());
    assertTrue(wiki.bipartite());
    assertEquals(1_000, wiki.items());
    assertEquals(172, wiki.edgeFeatureDim());
    assertEquals(9, wiki.communities());
    SyntheticGraphConfig smaller =
        parse(
            "--preset",
            "wikipedia-size",
            "--nodes",
            "2000",
            "--edge-feature-dim",
            "0",
            "--no-bipartite",
            "out");
    assertEquals(2_000, smaller.nodes());
    assertEquals(157_474, smaller.events());
    assertEquals(false, smaller.bipartite());
    assertEquals(0, smaller.items());
    assertEquals(0, smaller.edgeFeatureDim());
    assertEquals(2, smaller.communities());
  }

  @Test
  void defaultsWithoutPreset() {
    SyntheticGraphConfig c = parse("out");
    assertEquals(SyntheticGraphConfig.of(10_000, 100_000, 0), c);
    SyntheticGraphConfig bipartite = parse("--bipartite", "--nodes", "5000", "out");
    assertEquals(500, bipartite.items());
  }

  @Test
  void unknownPresetIsAUsageError() {
    assertEquals(2, run("generate", "--preset", "reddit", "out"));
    assertTrue(
        err.toString()
            .contains("unknown preset 'reddit', expected one of wiki-talk, wikipedia-size"),
        err.toString());
  }

  @Test
  void helpListsEveryOption() {
    assertEquals(0, run("generate", "--help"));
    for (String option :
        List.of(
            "--preset",
            "--nodes",
            "--events",
            "--communities",
            "--cross-community-share",
            "--[no-]bipartite",
            "--items",
            "--edge-feature-dim",
            "--seed",
            "--force",
            "wiki-talk",
            "wikipedia-size")) {
      assertTrue(out.toString().contains(option), option);
    }
  }
}
