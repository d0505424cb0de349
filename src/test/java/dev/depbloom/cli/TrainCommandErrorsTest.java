package dev.depbloom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes stop {@code train} before anything is written: exit 2, one message, no output folder.
 */
class TrainCommandErrorsTest {
  @TempDir Path dir;

  private String fails(String... args) {
    CliRuns.Outcome o = CliRuns.execute(args);
    assertEquals(2, o.status(), o.err());
    assertFalse(Files.exists(dir.resolve("out")), "no output folder may be left behind");
    return o.err();
  }

  private String out() {
    return dir.resolve("out").toString();
  }

  @Test
  void anUnknownConfigKeyIsNamed() {
    String err = fails("train", "--set", "memory.mailbox_sise=1", "--out", out());
    assertTrue(err.contains("memory.mailbox_sise: unknown key"), err);
  }

  @Test
  void aMissingDataFileIsNamed() {
    String missing = dir.resolve("nope.csv").toString();
    String err = fails("train", "--data", missing, "--out", out());
    assertTrue(err.contains(missing), err);
  }

  @Test
  void aMalformedRowIsNamedWithItsLine() throws IOException {
    Path csv = Files.writeString(dir.resolve("e.csv"), "src,dst,time\n0,1,1\n1,2,NaN\n");
    String err = fails("train", "--data", csv.toString(), "--out", out());
    assertTrue(err.contains(csv + ":3"), err);
  }

  /**
   * A finite float feature whose square overflows float32 (unscaled amounts) would saturate every
   * score: the run would report AP 0.5 as if it had trained. It is refused at load, naming the
   * file, the line, the column and the value, with the advice to scale it.
   */
  @Test
  void aFeatureTooLargeToComputeWithIsNamedWithItsLineAndColumn() throws IOException {
    StringBuilder rows = new StringBuilder("src,dst,time,amount\n");
    for (int i = 0; i < 30; i++) {
      rows.append(i % 5).append(',').append(5 + i % 7).append(',').append(i).append(",12.5\n");
    }
    rows.append("1,6,30,3e38\n");
    Path csv = Files.writeString(dir.resolve("tx.csv"), rows);
    String err = fails("train", "--data", csv.toString(), "--out", out());
    assertTrue(
        err.startsWith(
            "depbloom: error: "
                + csv
                + ":32: column 4 (amount): the feature value 3e38 overflows float32 arithmetic"),
        err);
    assertTrue(err.contains("scale the column"), err);
  }

  @Test
  void standInFeaturesAreRefusedForDataThatHasFeatures() {
    String bitcoin = DataFiles.fixture("cuts/soc-sign-bitcoinotc-head300.csv").toString();
    String err = fails("train", "--data", bitcoin, "--edge-feature-dim", "5", "--out", out());
    assertTrue(err.contains("already has edge features of width 1"), err);
  }

  @Test
  void badThreadCountsAreNamed() {
    String err = fails("train", "--threads", "0,2", "--out", out());
    assertTrue(err.contains("--threads 0,2"), err);
  }

  @Test
  void aNonEmptyOutputFolderIsNotReused() throws IOException {
    Path used = Files.createDirectories(dir.resolve("used"));
    Files.writeString(used.resolve("keep.txt"), "x");
    CliRuns.Outcome o =
        CliRuns.execute("train", "--epochs", "1", "--threads", "1,1", "--out", used.toString());
    assertEquals(2, o.status());
    assertTrue(o.err().contains("output folder exists and is not empty"), o.err());
    assertEquals(1, used.toFile().list().length);
  }

  @Test
  void anExplicitZeroTimeWidthOnDataWithoutFeaturesSaysWhatToGiveTheAttention() throws IOException {
    Path csv =
        Files.writeString(dir.resolve("e.csv"), "src,dst,time\n0,1,1\n1,2,2\n2,0,3\n0,2,4\n");
    String err =
        fails(
            "train",
            "--data",
            csv.toString(),
            "--model",
            "dysat",
            "--set",
            "gnn.dim_time=0",
            "--threads",
            "1,1",
            "--out",
            out());
    assertTrue(err.contains("has no input") && err.contains("--edge-feature-dim"), err);
  }

  @Test
  void resumingSomethingThatIsNotARunIsAnError() {
    String err = fails("train", "--resume", dir.toString());
    assertTrue(err.contains("not a run folder"), err);
  }
}
