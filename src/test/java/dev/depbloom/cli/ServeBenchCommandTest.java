package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.api.ServedRuns;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code depbloom bench serve} runs on a trained run and prints its table (speed not asserted). */
@Tag(Kernels.TRAINS)
class ServeBenchCommandTest {
  @TempDir Path dir;

  @Test
  void printsAMarkdownTableOfEveryOperation() {
    Path data = ServedRuns.writeStream(dir.resolve("events.csv"));
    Path run = ServedRuns.train(data, "tgn", dir.resolve("run"));
    String table =
        CliRuns.execute("bench", "serve", run.toString(), "--repeats", "40", "--http")
            .succeeded()
            .out();
    for (String row :
        new String[] {
          "| score | 1 | 40 |",
          "| score | 100 | 20 |", // 40 * 25 / 100 = 10 calls, at least 20
          "| observe | 1 | 90 |",
          "| observe | 600 | 0 |", // 90 test events: too few for a batch of 600
          "| score over HTTP | 1 | 200 |",
          "| training pass of the run (its metrics) |",
          "garbage collection: "
        }) {
      assertTrue(table.contains(row), row + " missing from\n" + table);
    }
  }
}
