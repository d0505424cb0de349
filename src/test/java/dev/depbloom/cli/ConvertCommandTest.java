package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFiles;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class ConvertCommandTest {
  @TempDir Path dir;

  @Test
  void convertingAStoreCopiesItByteForByte() throws IOException {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    StringWriter printed = new StringWriter();
    CommandLine generate = Main.commandLine().setOut(new PrintWriter(printed, true));
    assertEquals(
        0,
        generate.execute(
            "generate",
            "--nodes",
            "200",
            "--events",
            "1000",
            "--edge-feature-dim",
            "3",
            in.toString()));
    CommandLine convert =
        new CommandLine(new ConvertCommand()).setOut(new PrintWriter(printed, true));
    assertEquals(0, convert.execute(in.toString(), out.toString()));
    assertTrue(
        printed.toString().contains("wrote " + out + ": 1,000 events, 200 nodes; loaded in "),
        printed.toString());
    for (String file :
        List.of(
            "src.i32",
            "dst.i32",
            "time.f64",
            "node_ids.i64",
            "edge_features.f32",
            "manifest.json")) {
      assertArrayEquals(
          Files.readAllBytes(in.resolve(file)), Files.readAllBytes(out.resolve(file)), file);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "wikipedia-head300.csv",
        "CollegeMsg-head300.txt",
        "soc-sign-bitcoinotc-head300.csv",
        "USLegis-head300.csv",
        "lastfm_head40.csv"
      })
  void everyLoadersOutputConvertsAndLoadsBackIdentical(String file) throws IOException {
    convertsAndLoadsBackIdentical(DataFiles.fixture("cuts/" + file));
  }

  @ParameterizedTest
  @Tag("shared-data")
  @ValueSource(
      strings = {
        "wikipedia.csv.gz",
        "email-Eu-core-temporal.txt.gz",
        "CollegeMsg.txt.gz",
        "soc-sign-bitcoinotc.csv.gz",
        "USLegis.csv.gz",
        "lastfm_head40.csv"
      })
  void everySharedDataSetConvertsAndLoadsBackIdentical(String file) throws IOException {
    convertsAndLoadsBackIdentical(DataFiles.shared(file));
  }

  private void convertsAndLoadsBackIdentical(Path in) throws IOException {
    Path out = dir.resolve("store");
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine().setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    assertEquals(0, cl.execute("convert", in.toString(), out.toString()), err.toString());
    EventStream direct = EventLoader.load(in, LoadOptions.defaults());
    EventStream stored = EventLoader.load(out, LoadOptions.defaults());
    assertArrayEquals(direct.sources(), stored.sources());
    assertArrayEquals(direct.destinations(), stored.destinations());
    assertArrayEquals(direct.times(), stored.times());
    assertArrayEquals(direct.nodeIds().originalIds(), stored.nodeIds().originalIds());
    assertEquals(direct.bipartite(), stored.bipartite());
    assertEquals(direct.edgeFeatures().dim(), stored.edgeFeatures().dim());
    float[] a = new float[direct.edgeFeatures().dim()];
    float[] b = new float[a.length];
    int step = Math.max(1, direct.eventCount() / 300);
    for (int e = 0; e < direct.eventCount(); e += step) {
      direct.edgeFeatures().copyRow(e, a, 0);
      stored.edgeFeatures().copyRow(e, b, 0);
      assertArrayEquals(a, b, "edge features of event " + e);
    }
  }

  @Test
  void aBadInputFileFailsWithExitTwoAndWritesNoStore() throws IOException {
    Path csv = Files.writeString(dir.resolve("bad.csv"), "src,dst,time\n0,1,0\n1,x,2\n");
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine().setErr(new PrintWriter(err, true));
    assertEquals(2, cl.execute("convert", csv.toString(), out.toString()));
    assertTrue(err.toString().contains(csv + ":3"), err.toString());
    assertFalse(Files.exists(out));
  }
}
