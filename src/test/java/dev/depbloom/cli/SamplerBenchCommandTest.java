package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.cli.CliRuns.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SamplerBenchCommandTest {
  @TempDir Path dir;

  /** Ten events from user 0 to page 1 at times 1..10: the only destination is node 1. */
  private Path tenEvents() throws IOException {
    Path file = dir.resolve("ten.csv.gz");
    StringBuilder csv = new StringBuilder("u,i,ts,label\n");
    for (int t = 1; t <= 10; t++) {
      csv.append("0,1,").append(t).append(",0\n");
    }
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(csv.toString().getBytes(StandardCharsets.UTF_8));
    }
    return file;
  }

  @Test
  void printsExactlyOneJsonObjectWithBothThroughputs() throws IOException {
    Outcome result =
        CliRuns.execute(
            "bench",
            "sampler",
            "--json",
            "--threads",
            "2",
            "--warmup",
            "0",
            "--passes",
            "1",
            "--data",
            tenEvents().toString());
    assertEquals(0, result.status(), result.err());
    JsonNode json = new ObjectMapper().readTree(result.out());
    assertTrue(json.isObject());
    assertTrue(json.get("recentNeighborsPerSecond").asLong() > 0);
    assertTrue(json.get("uniformNeighborsPerSecond").asLong() > 0);
    assertEquals(2, json.get("threads").asInt());
    // 7 training events (70% of 10), roots [0 | 1 | 1] at time t = 1..7: each has the t - 1
    // earlier events, so recent 10 samples 3 * (0 + 1 + ... + 6) = 63 neighbors per pass.
    assertEquals(7, json.get("trainEvents").asInt());
    assertEquals(63, json.get("recent").get("neighborsPerPass").asLong());
    // uniform's first layer: 10 draws for each of the 3 * 6 roots with an earlier event.
    assertTrue(json.get("uniform").get("neighborsPerPass").asLong() > 180);
  }

  @Test
  void namesTheFileAndLineOfAMalformedRow() throws IOException {
    Path file = dir.resolve("bad.csv");
    Files.writeString(file, "u,i,ts,label\n0,1,1,0\n0,x,2,0\n");
    Outcome result = CliRuns.execute("bench", "sampler", "--data", file.toString());
    assertEquals(2, result.status());
    assertTrue(
        result
            .err()
            .startsWith(
                "depbloom: error: " + file + ":3: column 2 (i): expected a non-negative integer"),
        result.err());
  }

  @Test
  void saysWhichDataFileIsMissing() {
    Path missing = dir.resolve("missing.csv.gz");
    Outcome result = CliRuns.execute("bench", "sampler", "--data", missing.toString());
    assertEquals(2, result.status());
    assertEquals(
        "depbloom: error: " + missing + ": no such file or directory" + System.lineSeparator(),
        result.err());
  }

  @Test
  void benchWithoutASubcommandListsTheBenchmarks() {
    Outcome result = CliRuns.execute("bench");
    assertEquals(0, result.status());
    assertTrue(result.out().contains("sampler"), result.out());
  }
}
