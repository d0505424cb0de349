package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench schedules} end to end on a tiny stream: rows, files, the JSON contract. */
class SchedulesBenchCommandTest {
  @TempDir Path dir;

  @Test
  void everyRowHasTheReportedFieldsAndTheFilesAreWritten() throws Exception {
    EventStream s = TinyStreams.random(60, 1500, 0, 3);
    Path data = TinyStreams.writeCsv(s, dir.resolve("events.csv"));
    Path out = dir.resolve("bench");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    var cl = Main.commandLine();
    cl.setOut(new PrintWriter(stdout, true));
    cl.setErr(new PrintWriter(stderr, true));
    int status =
        cl.execute(
            "bench",
            "schedules",
            "--data",
            data.toString(),
            "--model",
            "jodie",
            "--devices",
            "2",
            "--epochs",
            "1",
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
            "--check-devices",
            "2",
            "--out",
            out.toString(),
            "--json");
    assertEquals(0, status, stderr.toString());
    String[] lines = stdout.toString().trim().split("\n");
    JsonNode summary = new ObjectMapper().readTree(lines[lines.length - 1]);
    JsonNode rows = summary.get("rows");
    // sequential, disttgl (2,1) and (1,2), depbloom, depbloom prefill and three ablations
    assertEquals(8, rows.size());
    assertEquals("depbloom prefill", rows.get(4).get("label").asText());
    for (JsonNode row : rows) {
      for (String key :
          List.of(
              "schedule",
              "label",
              "valAp",
              "testAp",
              "eventsPerSecond",
              "projectedEventsPerSecond",
              "timeToTargetSeconds",
              "projectedTimeToTargetSeconds",
              "speedupOverDisttgl")) {
        assertTrue(row.has(key), key + " missing in " + row);
      }
      assertTrue(row.get("projectedEventsPerSecond").asDouble() > 0);
    }
    assertEquals("sequential", rows.get(0).get("schedule").asText());
    // three validations inside the one epoch (the default of 4 an epoch), then its end
    JsonNode validations = rows.get(0).get("validations");
    assertEquals(4, validations.size(), validations.toString());
    for (int v = 1; v < 4; v++) {
      assertTrue(
          validations.get(v).get("position").asInt()
              > validations.get(v - 1).get("position").asInt());
    }
    assertEquals(2, summary.get("checks").size());
    for (String f :
        List.of("comparison.json", "comparison.md", "comparison.png", "comparison-curves.png")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
  }
}
