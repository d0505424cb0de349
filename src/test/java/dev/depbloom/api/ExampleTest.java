package dev.depbloom.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.examples.LinkPredictionExample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example in examples/java runs against a trained run and prints what it says it prints. */
@Tag(Kernels.TRAINS)
class ExampleTest {
  @TempDir Path dir;

  @Test
  void theLinkPredictionExampleScoresRanksAndSavesASnapshot() {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    Path run = ServedRuns.train(data, "tgn", dir.resolve("run"));
    PrintStream stdout = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      LinkPredictionExample.main(
          new String[] {run.toString(), "3", "1000", "1001", "1002", "1003"});
    } finally {
      System.setOut(stdout);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.startsWith("version 1: P(3 -> 1001) = 0."), text);
    assertTrue(text.lines().count() == 4, text);
    assertTrue(Files.isRegularFile(run.resolve("serving").resolve("example.snapshot")));
  }
}
