package dev.depbloom.data.load;

import static dev.depbloom.data.DataFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFiles;
import dev.depbloom.data.DataFormat;
import dev.depbloom.data.InputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad input fails with a message naming the file, the line and what was expected. */
class EventLoaderBadInputTest {
  @TempDir Path dir;

  private String failure(Path file, LoadOptions options) {
    return assertThrows(InputException.class, () -> EventLoader.load(file, options)).getMessage();
  }

  private String failure(Path file) {
    return failure(file, LoadOptions.defaults());
  }

  @Test
  void anEmptyFileSaysSo() {
    Path file = write(dir, "empty.txt", "");
    assertEquals(file + ":1: the file is empty; expected events", failure(file));
  }

  @Test
  void anEmptyFileOfAKnownFormatNamesWhatWasExpected() {
    Path file = write(dir, "empty.csv", "");
    assertEquals(
        file
            + ":1: the file is empty; expected a header line naming the columns, e.g. src,dst,time",
        failure(file, LoadOptions.defaults().withFormat(DataFormat.CSV)));
  }

  @Test
  void aHeaderWithoutEventsNamesTheLineAfterIt() {
    Path file = write(dir, "header.csv", "src,dst,time\n");
    assertEquals(
        file
            + ":2: the file has a header but no events; expected rows with the columns of the"
            + " header [src, dst, time]",
        failure(file));
  }

  @Test
  void aRowWithTheWrongColumnCountNamesItsLine() {
    Path file = write(dir, "short.txt", "1 2 3\n4 5 6\n1 2\n");
    assertEquals(
        file
            + ":3: expected 3 whitespace-separated columns like the first row (src dst time),"
            + " found 2",
        failure(file));
  }

  @Test
  void aNonNumericIdNamesLineAndColumn() {
    Path file = write(dir, "word.csv", "src,dst,time\n1,2,3\n1,x,4\n");
    assertEquals(
        file + ":3: column 2 (dst): expected a non-negative integer, found \"x\"", failure(file));
  }

  @Test
  void aNegativeIdNamesLineAndColumn() {
    Path file = write(dir, "neg.txt", "1 2 3\n-1 2 4\n");
    assertEquals(
        file
            + ":2: column 1 (src): must not be negative; expected a non-negative integer, found"
            + " \"-1\"",
        failure(file));
  }

  @Test
  void aNanTimeNamesLineAndColumn() {
    Path file = write(dir, "nan.txt", "1 2 3\n1 2 nan\n");
    assertEquals(
        file + ":2: column 3 (time): expected a finite number, found \"nan\"", failure(file));
  }

  @Test
  void anInfiniteFeatureNamesLineAndColumn() {
    Path file = write(dir, "inf.csv", "src,dst,time,w\n1,2,3,inf\n");
    assertEquals(file + ":2: column 4 (w): expected a finite number, found \"inf\"", failure(file));
  }

  @Test
  void raggedJodieFeatureRowsNameTheLine() {
    Path file =
        write(
            dir,
            "ragged.csv",
            "user_id,item_id,timestamp,state_label,comma_separated_list_of_features\n"
                + "0,0,0,0,0.1,0.2\n"
                + "0,1,1,0,0.1\n");
    assertEquals(
        file
            + ":3: expected 6 comma-separated columns like the first row (4 + 2 features),"
            + " found 5",
        failure(file));
  }

  @Test
  void aTruncatedGzipFileNamesTheFileAndTheLastLineRead() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 50_000; i++) {
      text.append(i % 977).append(' ').append(i % 131).append(' ').append(i).append('\n');
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(text.toString().getBytes(StandardCharsets.US_ASCII));
    }
    Path file = dir.resolve("cut.txt.gz");
    Files.write(file, Arrays.copyOf(bytes.toByteArray(), bytes.size() * 2 / 3));
    String message = failure(file);
    assertTrue(
        message.matches(
            Pattern.quote(file.toString())
                + ": the compressed data is truncated or corrupt after line [1-9][0-9]+ \\(.*\\);"
                + " expected a complete gzip stream"),
        message);
  }

  @Test
  void aMissingFileIsNamed() {
    Path file = dir.resolve("nowhere.csv");
    assertEquals(file + ": no such file or directory", failure(file));
  }

  @Test
  void anUnknownFormatListsTheFormatValues() {
    Path file = write(dir, "prose.txt", "hello world\n");
    assertEquals(
        file
            + ": cannot tell the data format (line 1 is neither a known header nor"
            + " whitespace-separated numbers \"src dst time\"); choose one with --format: tgl,"
            + " jodie, dyglib, snap, snap-signed, csv, binary",
        failure(file));
  }

  @Test
  void threeCommaSeparatedNumbersWithoutHeaderAreAmbiguous() {
    Path file = write(dir, "three.csv", "1,2,3\n");
    assertTrue(failure(file).startsWith(file + ": cannot tell the data format (line 1 has 3"));
  }

  @Test
  void strictRejectsUnsortedInputNamingTheFirstOutOfOrderLine() {
    Path file = write(dir, "unsorted.txt", "1 2 5\n2 3 6\n3 1 4\n");
    assertEquals(
        file
            + ":3: time 4.0 is earlier than the previous row's 6.0; --strict expects rows sorted"
            + " by time (without it they are sorted stably)",
        failure(file, LoadOptions.defaults().withStrict(true)));
  }

  @Test
  void anAmbiguousAutomaticMappingAsksForColumns() {
    Path file = write(dir, "two.csv", "u,source,i,ts\n1,2,3,4\n");
    assertEquals(
        file
            + ":1: both \"u\" and \"source\" could be the source column; choose with --columns"
            + " src=...,dst=...,time=...",
        failure(file));
  }

  @Test
  void aMappedColumnMissingFromTheHeaderIsNamed() {
    Path file = write(dir, "m.csv", "a,b,c\n1,2,3\n");
    LoadOptions options =
        LoadOptions.defaults().withColumns(ColumnMapping.parse("src=a,dst=b,time=t"));
    assertEquals(
        file + ":1: the header has no column \"t\" (time in --columns); its columns are [a, b, c]",
        failure(file, options));
  }

  @Test
  void aTglEdgeIdBeyondTheFeatureRowsNamesTheLine() throws IOException {
    Path tgl = Files.createDirectory(dir.resolve("tgl"));
    Files.copy(DataFiles.fixture("tgl-tiny/edge_features.pt"), tgl.resolve("edge_features.pt"));
    write(tgl, "edges.csv", ",src,dst,time,int_roll,ext_roll\n0,1,2,0,0,0\n5,2,1,1,0,0\n");
    assertEquals(
        tgl.resolve("edges.csv")
            + ":3: edge feature row 5 is outside the feature table's rows"
            + " 0..4",
        failure(tgl));
  }

  @Test
  void aFileNamedAsBinaryStoreIsRejectedAsNotAStoreDirectory() {
    Path file = write(dir, "events.bin", "x");
    assertEquals(
        file + ": is not a directory; an event store is a directory with manifest.json",
        failure(file, LoadOptions.defaults().withFormat(DataFormat.BINARY)));
  }

  @Test
  void columnsWithAnotherFormatIsAnError() {
    Path file = write(dir, "x.txt", "1 2 3\n");
    LoadOptions options =
        LoadOptions.defaults()
            .withFormat(DataFormat.SNAP)
            .withColumns(ColumnMapping.parse("src=a,dst=b,time=c"));
    assertEquals(
        "--columns with header names applies to header CSV files (--format csv), not to snap;"
            + " for a file without a header give the columns by 1-based position, e.g."
            + " --columns src=1,dst=2,time=3",
        failure(file, options));
  }

  /** A DyGLib edge feature too large to compute with is named by file, row and column. */
  @Test
  void aDyglibFeatureTooLargeToComputeWithIsNamedWithItsRowAndColumn() throws IOException {
    Path tiny = Files.createDirectories(dir.resolve("tiny"));
    for (String name : new String[] {"ml_tiny.csv", "ml_tiny.npy", "ml_tiny_node.npy"}) {
      Files.copy(DataFiles.fixture("dyglib-tiny/" + name), tiny.resolve(name));
    }
    Path npy = tiny.resolve("ml_tiny.npy");
    byte[] bytes = Files.readAllBytes(npy);
    java.nio.ByteBuffer.wrap(bytes)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putFloat(128 + 4 * (2 * 2 + 1), 3e38f); // row 2, column 1 of [5, 2] after the header
    Files.write(npy, bytes);
    String message =
        assertThrows(InputException.class, () -> EventLoader.load(tiny, LoadOptions.defaults()))
            .getMessage();
    assertTrue(
        message.startsWith(
            npy + ": row 2, column 1: the feature value 3.0E38 overflows float32 arithmetic"),
        message);
  }
}
