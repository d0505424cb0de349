package dev.depbloom.cli;

import static dev.depbloom.cli.CliRuns.execute;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.cli.CliRuns.Outcome;
import dev.depbloom.data.DataFiles;
import dev.depbloom.model.config.ConfigReader;
import dev.depbloom.model.config.ModelConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shipped model trains on data without node or edge features: DySAT's attention, which has no
 * time encoding in TGL's config, gets one, says so, and keeps it in the run's config.
 */
@Tag(Kernels.TRAINS)
class TrainFeaturelessDataTest {
  private static final Path EDGE_LIST = DataFiles.fixture("cuts/CollegeMsg-head300.txt");

  @TempDir Path dir;

  /** DySAT for one epoch on the edge list, in batches of 100, into {@code runDir}. */
  private static Outcome trainDysat(Path runDir, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                EDGE_LIST.toString(),
                "--model",
                "dysat",
                "--epochs",
                "1",
                "--batch-size",
                "100",
                "--eval-negatives",
                "2",
                "--threads",
                "1,1",
                "--sampler-threads",
                "1",
                "--quiet",
                "--json",
                "--out",
                runDir.toString()));
    args.addAll(List.of(more));
    return execute(args);
  }

  @Test
  void dysatOnAnEdgeListWithoutFeaturesTrainsWithATimeEncodingKeptInItsConfig() throws IOException {
    Path runDir = dir.resolve("run");
    Outcome trained = trainDysat(runDir);
    assertEquals(0, trained.status(), trained.err());
    assertEquals(
        "depbloom: note: dysat: the data has no node or edge features, so attention gets a time"
            + " encoding (gnn.dim_time=100, kept in config.yml); choose with --set"
            + " gnn.dim_time=W or give stand-in features with --edge-feature-dim W\n",
        trained.err());
    ModelConfig recorded = ConfigReader.read(runDir.resolve("config.yml"), "dysat", Map.of());
    assertEquals(100, recorded.gnn().dimTime());
    assertEquals(1, trained.summary().get("epochs").asInt());

    Outcome evaluated = execute("evaluate", runDir.toString(), "--quiet", "--json");
    assertEquals(0, evaluated.status(), evaluated.err());
    assertEquals(trained.summary().get("testAp"), evaluated.summary().get("testAp"));
  }

  @Test
  void dataWithEdgeFeaturesKeepsDysatWithoutTimeEncodingAndSaysNothing() throws IOException {
    Path runDir = dir.resolve("run");
    Outcome trained = trainDysat(runDir, "--edge-feature-dim", "2");
    assertEquals(0, trained.status(), trained.err());
    assertEquals("", trained.err());
    ModelConfig recorded = ConfigReader.read(runDir.resolve("config.yml"), "dysat", Map.of());
    assertEquals(0, recorded.gnn().dimTime());
    assertTrue(trained.summary().has("testAp"));
  }
}
