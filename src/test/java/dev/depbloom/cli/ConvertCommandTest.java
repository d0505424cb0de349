package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.InputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @Test
  void otherFormatsAreNotReadYet() throws IOException {
    Path csv = Files.writeString(dir.resolve("edges.csv"), "u,i,ts\n0,1,0\n");
    InputException e =
        assertThrows(InputException.class, () -> new ConvertCommand().load(csv, DataFormat.JODIE));
    assertEquals(
        csv + ": convert reads only binary event stores in this build, not JODIE", e.getMessage());
    e = assertThrows(InputException.class, () -> new ConvertCommand().load(csv, null));
    assertEquals(
        csv + ": convert reads only binary event stores in this build (no manifest.json there)",
        e.getMessage());
  }
}
