package dev.depbloom.schedule.halves;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.cli.CliRuns;
import dev.depbloom.schedule.ScheduleFamilies;
import dev.depbloom.train.RunConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schedule family that lives in this folder of the test tree and one line of its service file
 * trains end to end through the command line, as the shipped families do: {@code --schedule halves}
 * is read, written to config.yml and read back, and trains in its own rounds.
 */
@Tag(Kernels.TRAINS)
class HalvesFamilyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  private JsonNode train(Path data, String name, String schedule, int batch, String... more)
      throws IOException {
    Path out = dir.resolve(name);
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--edge-feature-dim",
                "4",
                "--epochs",
                "1",
                "--batch-size",
                String.valueOf(batch),
                "--eval-negatives",
                "2",
                "--set",
                "memory.dim_out=8",
                "--set",
                "gnn.dim_out=8",
                "--schedule",
                schedule,
                "--seed",
                "3",
                "--out",
                out.toString(),
                "--json"));
    args.addAll(List.of(more));
    CliRuns.execute(args).succeeded();
    List<String> lines = Files.readAllLines(out.resolve("metrics.jsonl"));
    return JSON.readTree(lines.get(lines.size() - 1));
  }

  @Test
  void aFamilyFromTheTestTreeTrainsEndToEnd() throws IOException {
    assertTrue(ScheduleFamilies.names().contains("halves"), ScheduleFamilies.names().toString());
    Path data = TinyStreams.writeCsv(TinyStreams.random(60, 1500, 0, 5), dir.resolve("e.csv"));

    JsonNode halves = train(data, "halves", "halves", 50, "--set", "schedule.divisor=2");
    JsonNode sequential25 = train(data, "seq25", "sequential", 25);
    JsonNode sequential50 = train(data, "seq50", "sequential", 50);

    // rounds of ceil(50 / 2) = 25 events: the parameters sequential reaches at B = 25, bit for bit
    assertEquals(sequential25.get("trainEvents"), halves.get("trainEvents"));
    assertEquals(sequential25.get("trainLoss"), halves.get("trainLoss"));
    assertEquals(sequential25.get("parameterChecksum"), halves.get("parameterChecksum"));
    assertNotEquals(sequential50.get("parameterChecksum"), halves.get("parameterChecksum"));

    RunConfig saved =
        RunConfig.read(dir.resolve("halves/config.yml"), "halves", java.util.Map.of());
    assertEquals(new HalvesConfig(2, true), saved.schedule(), "config.yml reads back");
    assertTrue(
        Files.readString(dir.resolve("halves/config.yml")).contains("    divisor: 2\n"),
        "the family writes its key");
  }
}
