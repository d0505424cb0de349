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
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {
  @TempDir Path dir;
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

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void jsonOutputIsOneObjectWithTheCountsOfTheFile() throws IOException {
    Path cut = DataFiles.fixture("cuts/wikipedia-head300.csv");
    int status = Main.run("inspect", cut.toString(), "--json");
    assertEquals(0, status, stderr());
    String text = stdout().trim();
    assertEquals(1, text.lines().count(), text);
    JsonNode json = new ObjectMapper().readTree(text);
    assertEquals(300, json.get("events").asInt());
    assertEquals(139, json.get("nodes").asInt()); // 73 users + 66 pages in the first 300 rows
    assertTrue(json.get("bipartite").asBoolean());
    assertEquals(0, json.get("edgeFeatureDim").asInt());
    assertEquals(0.0, json.get("timeMin").asDouble());
    assertEquals(6_935.0, json.get("timeMax").asDouble());
    assertEquals(0, json.get("outOfOrder").asInt());
    assertEquals(210, json.get("trainEvents").asInt()); // (int) (300 * 0.70)
    assertEquals("", stderr());
  }

  @Test
  @Tag("shared-data")
  void jsonOutputIsOneObjectWithTheWikipediaCounts() throws IOException {
    int status = Main.run("inspect", DataFiles.shared("wikipedia.csv.gz").toString(), "--json");
    assertEquals(0, status, stderr());
    String text = stdout().trim();
    assertEquals(1, text.lines().count(), text);
    JsonNode json = new ObjectMapper().readTree(text);
    assertEquals(157_474, json.get("events").asInt());
    assertEquals(9_227, json.get("nodes").asInt());
    assertTrue(json.get("bipartite").asBoolean());
    assertEquals(0, json.get("edgeFeatureDim").asInt());
    assertEquals(0, json.get("nodeFeatureDim").asInt());
    assertEquals(0.0, json.get("timeMin").asDouble());
    assertEquals(2_678_373.0, json.get("timeMax").asDouble());
    assertEquals(0, json.get("outOfOrder").asInt());
    assertEquals(110_231, json.get("trainEvents").asInt()); // (int) (157474 * 0.70)
    assertEquals("", stderr());
  }

  @Test
  void withoutAPathItDescribesTheEmbeddedWikipediaAndCitesIt() {
    assertEquals(0, Main.run("inspect"), stderr());
    String text = stdout();
    assertTrue(text.contains("events                   157,474\n"), text);
    assertTrue(text.contains("nodes                    9,227\n"), text);
    assertTrue(text.contains("bipartite                yes\n"), text);
    assertTrue(text.contains("KDD 2019"), text);
  }

  @Test
  void unsortedInputWarnsOnStandardErrorAndKeepsStandardOutJson() throws IOException {
    Path file = Files.writeString(dir.resolve("u.txt"), "1 2 5\n2 3 4\n");
    assertEquals(0, Main.run("inspect", file.toString(), "--json"));
    JsonNode json = new ObjectMapper().readTree(stdout());
    assertEquals(1, json.get("outOfOrder").asInt());
    assertEquals(2, json.get("rowsMoved").asInt());
    assertTrue(stderr().startsWith("depbloom: warning: " + file + ": 1 row(s) are earlier"));
  }

  @Test
  void aBadFileExitsWithTwoAndPrintsTheErrorWithoutAStackTrace() throws IOException {
    Path file = Files.writeString(dir.resolve("bad.txt"), "1 2 3\n1 2 x\n");
    assertEquals(Main.EXIT_INPUT_ERROR, Main.run("inspect", file.toString()));
    assertEquals(
        "depbloom: error: "
            + file
            + ":2: column 3 (time): expected a finite number, found \"x\""
            + System.lineSeparator(),
        stderr());
    assertEquals("", stdout());
  }

  @Test
  void strictTurnsUnsortedInputIntoAnError() throws IOException {
    Path file = Files.writeString(dir.resolve("u.txt"), "1 2 5\n2 3 4\n");
    assertEquals(Main.EXIT_INPUT_ERROR, Main.run("inspect", file.toString(), "--strict"));
    assertTrue(stderr().startsWith("depbloom: error: " + file + ":2: time 4.0 is earlier"));
  }

  @Test
  void formatAndColumnsOptionsReachTheLoader() throws IOException {
    Path file = Files.writeString(dir.resolve("m.csv"), "a,b,when,x\n1,2,3,0.5\n2,1,4,1.5\n");
    int status =
        Main.run(
            "inspect",
            file.toString(),
            "--format",
            "csv",
            "--columns",
            "src=a,dst=b,time=when,features=x",
            "--json");
    assertEquals(0, status, stderr());
    assertEquals(1, new ObjectMapper().readTree(stdout()).get("edgeFeatureDim").asInt());
  }

  @Test
  void positionalColumnsReadAnEdgeListWithClassLabels() throws IOException {
    Path contacts = DataFiles.fixture("positional/contacts-with-classes.txt");
    int status =
        Main.run("inspect", contacts.toString(), "--columns", "src=1,dst=2,time=3", "--json");
    assertEquals(0, status, stderr());
    JsonNode json = new ObjectMapper().readTree(stdout());
    assertEquals(4, json.get("events").asInt());
    assertEquals(3, json.get("nodes").asInt());
  }

  @Test
  void positionZeroIsAnInputErrorNamingTheOption() {
    Path contacts = DataFiles.fixture("positional/contacts-with-classes.txt");
    assertEquals(
        Main.EXIT_INPUT_ERROR,
        Main.run("inspect", contacts.toString(), "--columns", "src=0,dst=1,time=2"));
    assertTrue(
        stderr().startsWith("depbloom: error: --columns src=0: positions count from 1"), stderr());
  }

  @Test
  void anUnknownFormatNameIsAUsageErrorListingTheNames() {
    assertEquals(2, Main.run("inspect", "x", "--format", "parquet"));
    assertTrue(
        stderr()
            .contains(
                "unknown format 'parquet'; expected one of: tgl, jodie, dyglib, snap,"
                    + " snap-signed, csv, binary"),
        stderr());
  }

  @Test
  void helpDescribesTheFormats() {
    assertEquals(0, Main.run("inspect", "--help"));
    assertTrue(stdout().contains("snap-signed: 'src,dst,rating,time' without header."), stdout());
  }
}
