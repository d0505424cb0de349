package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.depbloom.Kernels;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench schedules} end to end on a tiny stream: rows, files, the JSON contract. */
@Tag(Kernels.TRAINS)
class SchedulesBenchCommandTest {
  @TempDir Path dir;

  private JsonNode run(Path out, String... more) {
    EventStream s = TinyStreams.random(60, 1500, 0, 3);
    Path data = TinyStreams.writeCsv(s, dir.resolve("events-" + out.getFileName() + ".csv"));
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "bench",
                "schedules",
                "--data",
                data.toString(),
                "--model",
                "jodie",
                "--devices",
                "2",
                "--edge-feature-dim",
                "4",
                "--set",
                "memory.dim_out=8",
                "--set",
                "memory.dim_time=4",
                "--set",
                "train.batch_size=100",
                "--set",
                "train.eval_negatives=2",
                "--workers",
                "2",
                "--out",
                out.toString(),
                "--json"));
    args.addAll(List.of(more));
    return CliRuns.runInProcess(args);
  }

  /**
   * Epochs mode with a GPU model: every row of every group, validated at equal trained events (a k
   * = 2 row, which trains each event twice an epoch, is checked twice as often an epoch), the
   * targets under every clock, and the files.
   */
  @Test
  void everyRowHasItsTargetsUnderEveryClockAndTheFilesAreWritten() throws Exception {
    Path out = dir.resolve("bench");
    JsonNode summary =
        run(
            out,
            "--mode",
            "epochs",
            "--epochs",
            "1",
            "--device-model",
            "measured,a100-pcie",
            "--rows",
            "disttgl,depbloom,prefill,ablations",
            "--depbloom-k",
            "2",
            "--check-devices",
            "2");
    JsonNode rows = summary.get("rows");
    // sequential, disttgl (i, j, k) = (2,1,1), (1,2,1) and (1,1,2), depbloom (P = 2, k = 2, one
    // memory group; P = 1, k = 2, two memory groups), depbloom prefill (P = 2 only: one chain has
    // nothing to replay) and three ablations
    assertEquals(10, rows.size());
    assertEquals("disttgl i=1 j=2 k=1 B=100", rows.get(2).get("label").asText());
    assertEquals("depbloom P=1 k=2 B=100 M=2", rows.get(5).get("label").asText());
    assertEquals("depbloom prefill P=2 k=2 B=100 M=1", rows.get(6).get("label").asText());
    for (JsonNode row : rows) {
      for (String clock : List.of("here", "measured", "a100-pcie")) {
        JsonNode t = row.get("targets").get(clock);
        assertTrue(t.has("seconds") && t.has("speedup") && t.has("oneCheckDecides"), row + "");
        assertTrue(t.get("eventsPerSecond").asDouble() > 0, clock + " " + row.get("label"));
      }
      assertTrue(row.get("run").get("gpu").get("a100-pcie").get("seconds").asDouble() > 0);
    }
    assertEquals("sequential", rows.get(0).get("schedule").asText());
    // 1,050 training events, checks every 525 trained: sequential once inside its epoch, then its
    // end; disttgl k = 2 trains 2,100 an epoch: three checks inside, then its end; so does j = 2,
    // whose two copies train every event
    assertEquals(2, rows.get(0).get("run").get("validations").size());
    assertEquals(4, rows.get(2).get("run").get("validations").size());
    JsonNode groups = rows.get(3).get("run").get("validations");
    assertEquals("disttgl i=1 j=1 k=2 B=100", rows.get(3).get("label").asText());
    assertEquals(4, groups.size(), groups.toString());
    for (int v = 1; v < groups.size(); v++) {
      assertTrue(
          groups.get(v).get("trainedEvents").asLong()
              > groups.get(v - 1).get("trainedEvents").asLong());
    }
    assertEquals(2, summary.get("checks").size());
    for (String f :
        List.of(
            "comparison.json",
            "comparison.md",
            "comparison-measured.png",
            "comparison-a100-pcie-curves.png")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    String md = Files.readString(out.resolve("comparison.md"));
    assertTrue(md.contains("Projected onto the GPU device model 'a100-pcie'"), md);
    assertTrue(md.contains("Where the projected time on 'a100-pcie' goes"), md);
  }

  /** A chart's title names the data file without its folders, which pushed it past the edge. */
  @Test
  void theChartTitleNamesTheDataFileWithoutItsFolders() {
    assertEquals(
        "email-Eu-core-temporal.txt.gz",
        SchedulesBenchCommand.shortSource("../shared/data/email-Eu-core-temporal.txt.gz"));
    assertEquals("wikipedia.csv", SchedulesBenchCommand.shortSource("wikipedia.csv"));
    assertEquals(RunSetup.EMBEDDED, SchedulesBenchCommand.shortSource(RunSetup.EMBEDDED));
  }

  /**
   * Converged mode: sequential has one learning rate, a G = 2 row the grid's three (screened), and
   * every row stops by patience or the cap.
   */
  @Test
  void aConvergedRowChoosesItsLearningRateFromTheGrid() {
    JsonNode summary =
        run(
            dir.resolve("converged"),
            "--rows",
            "disttgl",
            "--only",
            "disttgl i=2 j=1 k=1 B=100",
            "--patience",
            "1",
            "--max-trained",
            "2",
            "--lr-screen",
            "0.5");
    JsonNode rows = summary.get("rows");
    assertEquals(2, rows.size());
    assertEquals(1, rows.get(0).get("grid").size()); // one rate, trained to convergence
    JsonNode grid = rows.get(1).get("grid");
    assertEquals(3, grid.size());
    double chosen = rows.get(1).get("run").get("lrMultiplier").asDouble();
    double best = -1;
    double bestMultiplier = 0;
    for (JsonNode g : grid) {
      if (g.get("bestValAp").asDouble() > best) {
        best = g.get("bestValAp").asDouble();
        bestMultiplier = g.get("multiplier").asDouble();
      }
    }
    assertEquals(bestMultiplier, chosen);
    for (JsonNode row : rows) {
      assertTrue(row.get("run").get("trainedEvents").asLong() <= 2 * 1050 + 1050, row + "");
    }
  }
}
