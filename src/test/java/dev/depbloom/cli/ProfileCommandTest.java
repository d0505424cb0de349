package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.data.DataFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ProfileCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @BeforeEach
  void captureStandardStreams() {
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStandardStreams() {
    System.setOut(savedOut);
    System.setErr(savedErr);
  }

  /**
   * {@code profile --json} of the Wikipedia fixture's head with windows of 120, priced on a100-pcie
   * from JODIE, with {@code options}: its {@code deviceRecommendation}.
   */
  private JsonNode pricedOnAnA100(String... options) throws IOException {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "profile",
            "--data",
            DataFiles.fixture("cuts/wikipedia-head300.csv").toString(),
            "--windows",
            "120",
            "--device-model",
            "a100-pcie",
            "--model",
            "jodie",
            "--json"));
    args.addAll(List.of(options));
    assertEquals(0, Main.run(args.toArray(String[]::new)), stderr());
    List<String> lines = stdout().lines().toList();
    return new ObjectMapper().readTree(lines.get(lines.size() - 1)).get("deviceRecommendation");
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  @Tag("shared-data")
  void jsonEndsTheOutputWithTheMeasuresAndARecommendationForTheDevices() throws IOException {
    String data = DataFiles.shared("CollegeMsg.txt.gz").toString();
    int status = Main.run("profile", "--data", data, "--devices", "4", "--json");
    assertEquals(0, status, stderr());
    List<String> lines = stdout().lines().toList();
    JsonNode json = new ObjectMapper().readTree(lines.get(lines.size() - 1));
    assertEquals(41_884, json.get("to").asInt()); // (int) (59,835 * 0.70)
    assertEquals(4, json.get("devices").asInt());
    assertEquals(600, json.get("batchSize").asInt());
    assertEquals(3 * 2 * 3, json.get("partitions").size()); // windows x partitioners x P in 1,2,4
    JsonNode first = json.get("partitions").get(0);
    assertEquals(0.0, first.get("crossChainShare").asDouble());
    assertTrue(first.get("lostOwnedRows").has("eventShare"), first.toString());
    assertEquals(3, json.get("staleness").size());
    assertEquals(3 * 4, json.get("hotCold").size());
    JsonNode r = json.get("recommendation");
    assertEquals(4, r.get("chains").asInt() * r.get("microBatches").asInt());
    assertTrue(List.of("contiguous", "topology").contains(r.get("partitioner").asText()));
    assertTrue(r.get("window").asInt() > 0);
    assertTrue(r.get("reason").asText().contains("fewest events at risk"), r.toString());
  }

  @Test
  void tablesShowEveryMeasureAndTheRecommendation() {
    assertEquals(0, Main.run("profile", "--devices", "2", "--windows", "12000"), stderr());
    String text = stdout();
    assertTrue(text.contains("Dependency profile of embedded:wikipedia"), text);
    assertTrue(text.contains("  12,000  topology      2   1"), text);
    assertTrue(text.contains("(the paper's Fig. 5a)"), text);
    assertTrue(text.contains("Intra-batch staleness"), text);
    assertTrue(text.contains("recent10 hot"), text);
    assertTrue(text.contains("Recommendation: window 12,000"), text);
    assertTrue(stderr().contains("profile: partitions 4/4"), stderr());
  }

  @Test
  void badOptionValuesNameTheOption() {
    assertEquals(2, Main.run("profile", "--devices", "0"));
    assertTrue(stderr().contains("--devices: expected at least 1 device, got 0"), stderr());
    assertEquals(2, Main.run("profile", "--windows", "4000,-1"));
    assertTrue(stderr().contains("--windows: expected positive window sizes, got -1"), stderr());
    assertEquals(2, Main.run("profile", "--read-rule", "mine"));
    assertTrue(stderr().contains("unknown read rule 'mine'"), stderr());
    assertEquals("", stdout());
  }

  /**
   * On a GPU device model the candidates are priced from a recorded item: a chain of more refined
   * micro-batches costs more a round (its memory updates in series), and the choice is among the
   * candidates within a point of the fewest events at risk.
   */
  @Test
  void aDeviceModelPricesTheCandidatesAndRecommendsAmongTheLeastAtRisk() throws IOException {
    JsonNode d = pricedOnAnA100("--devices", "4", "--batch-size", "20", "--record-rounds", "3");
    assertEquals("a100-pcie", d.get("deviceModel").asText());
    assertEquals(4, d.get("chains").asInt() * d.get("microBatches").asInt());
    assertTrue(d.get("projectedEventsPerSecond").asDouble() > 0, d.toString());
    assertTrue(stderr().contains("recording 3 training rounds of jodie"), stderr());
    // the local placement: k = 1, 2, 4, 8 priced; 210 training events at G = 4, B = 20 leave
    // fewer than 46 optimizer steps an epoch at any k, so no k > 1 pays and k = 1 is recommended
    JsonNode local = d.get("local");
    assertEquals(1, local.get("microBatches").asInt(), local.toString());
    assertTrue(local.get("reason").asText().contains("no k > 1 pays"), local.toString());
    for (JsonNode c : local.get("candidates")) {
      assertEquals(c.get("microBatches").asInt() == 1, c.get("pays").asBoolean(), c.toString());
    }
  }

  /**
   * With the step bar lowered, a k > 1 is recommended where it projects more than 9/7 of k = 1's
   * events/s: the fastest such k, and every k it passes over is either slower or fails a bar.
   */
  @Test
  void theLocalPlacementsKIsTheFastestThatClearsBothBars() throws IOException {
    JsonNode local =
        pricedOnAnA100(
                "--devices", "1", "--batch-size", "10", "--record-rounds", "2", "--min-steps", "2")
            .get("local");
    int chosen = local.get("microBatches").asInt();
    double best = local.get("projectedEventsPerSecond").asDouble();
    assertTrue(chosen > 1, "a launch-bound k x 10 on an A100 pays at some k: " + local);
    for (JsonNode c : local.get("candidates")) {
      boolean clears =
          c.get("microBatches").asInt() == 1
              || (c.get("speedup").asDouble() > 9.0 / 7.0 && c.get("stepsPerEpoch").asInt() >= 2);
      assertEquals(clears, c.get("pays").asBoolean(), c.toString());
      if (clears) {
        assertTrue(c.get("projectedEventsPerSecond").asDouble() <= best, c.toString());
      }
    }
    assertTrue(stderr().contains("as one chain of k=8 x 10 (local)"), stderr());
  }
}
