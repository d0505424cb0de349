package dev.depbloom.data.load;

import static dev.depbloom.data.DataFiles.fixture;
import static dev.depbloom.data.DataFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.FeatureMatrix;
import dev.depbloom.data.HeapFeatureMatrix;
import dev.depbloom.data.InputException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --columns} by 1-based position reads delimited rows with or without header. */
class PositionalColumnsLoaderTest {
  private static final Path CONTACTS = fixture("positional/contacts-with-classes.txt");

  @TempDir Path dir;

  private static LoadOptions columns(String spec) {
    return LoadOptions.defaults().withColumns(ColumnMapping.parse(spec));
  }

  private static String failure(Path file, LoadOptions options) {
    return assertThrows(InputException.class, () -> EventLoader.load(file, options)).getMessage();
  }

  private static float[] values(FeatureMatrix m) {
    return ((HeapFeatureMatrix) m).values();
  }

  @Test
  void anEdgeListWithClassLabelsLoadsWithPositionsAndIgnoresTheLabels() {
    EventStream s = EventLoader.load(CONTACTS, columns("src=1,dst=2,time=3"));
    assertEquals(DataFormat.SNAP, s.ingest().format());
    assertArrayEquals(new long[] {7, 17, 42}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {1, 2, 1, 0}, s.sources());
    assertArrayEquals(new int[] {2, 0, 0, 2}, s.destinations());
    assertArrayEquals(new double[] {1353303380, 1353303400, 1353303400, 1353303420}, s.times());
    assertEquals(0, s.edgeFeatures().dim());
  }

  @Test
  void withoutColumnsTheEdgeListWithLabelsIsRefusedNamingTheLineAndPositionalColumns() {
    assertEquals(
        CONTACTS
            + ":1: column 4 holds \"classA\", not a number, in a row of whitespace-separated"
            + " values without header; to read src, dst and time and skip such columns, give the"
            + " columns by 1-based position, e.g. --columns src=1,dst=2,time=3",
        failure(CONTACTS, LoadOptions.defaults()));
  }

  @Test
  void asSnapTheEdgeListWithLabelsIsRefusedNamingTheLineAndPositionalColumns() {
    assertEquals(
        CONTACTS
            + ":1: column 4 (weight 1) holds \"classA\", not a number; to read src, dst and"
            + " time and skip columns that are not numbers, give the columns by 1-based"
            + " position, e.g. --columns src=1,dst=2,time=3",
        failure(CONTACTS, LoadOptions.defaults().withFormat(DataFormat.SNAP)));
  }

  @Test
  void commaSeparatedRowsWithTextAreRefusedInsteadOfTakenForAHeader() {
    Path file = write(dir, "c.csv", "17,42,1353303380,classA\n42,7,1353303400,classB\n");
    assertEquals(
        file
            + ":1: column 4 holds \"classA\", not a number, in a row of comma-separated values"
            + " without header; to read src, dst and time and skip such columns, give the"
            + " columns by 1-based position, e.g. --columns src=1,dst=2,time=3",
        failure(file, LoadOptions.defaults()));
    EventStream s = EventLoader.load(file, columns("src=1,dst=2,time=3"));
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertArrayEquals(new double[] {1353303380, 1353303400}, s.times());
  }

  @Test
  void aHeaderLineIsRecognisedWhenItsMappedFieldsAreNotNumbers() {
    Path file = write(dir, "h.csv", "id,from,to,when,w,note\n0,5,6,10,0.5,x\n1,6,5,11,1.5,y\n");
    EventStream s = EventLoader.load(file, columns("src=2,dst=3,time=4,features=5"));
    assertEquals(DataFormat.CSV, s.ingest().format());
    assertArrayEquals(new long[] {5, 6}, s.nodeIds().originalIds());
    assertArrayEquals(new int[] {0, 1}, s.sources());
    assertArrayEquals(new double[] {10, 11}, s.times());
    assertArrayEquals(new float[] {0.5f, 1.5f}, values(s.edgeFeatures()));
  }

  @Test
  void tabsSeparateColumnsLikeSpacesAndCommentsAreSkipped() {
    Path file = write(dir, "t.tsv", "# contacts\n3\t1\tred\t10\n1\t3\tblue\t20\n\n");
    EventStream s = EventLoader.load(file, columns("src=1,dst=2,time=4"));
    assertArrayEquals(new int[] {1, 0}, s.sources());
    assertArrayEquals(new double[] {10, 20}, s.times());
  }

  @Test
  void withFormatCsvTheFirstLineIsTheHeaderAndWithSnapSignedThereIsNone() {
    Path file = write(dir, "n.csv", "9,8,7\n1,2,3\n");
    EventStream csv =
        EventLoader.load(file, columns("src=1,dst=2,time=3").withFormat(DataFormat.CSV));
    assertEquals(1, csv.eventCount());
    EventStream signed =
        EventLoader.load(file, columns("src=1,dst=2,time=3").withFormat(DataFormat.SNAP_SIGNED));
    assertEquals(DataFormat.SNAP_SIGNED, signed.ingest().format());
    assertEquals(2, signed.eventCount());
  }

  @Test
  void aPositionBeyondTheRowNamesTheFileLineAndTheOption() {
    Path file = write(dir, "w.txt", "1 2 3 4\n2 3 4 5\n3 4 5\n");
    assertEquals(
        file
            + ":3: the row has 3 whitespace-separated columns, but --columns features=4 asks for"
            + " column 4",
        failure(file, columns("src=1,dst=2,time=3,features=4")));
    assertEquals(
        file
            + ":1: the row has 4 whitespace-separated columns, but --columns time=9 asks for"
            + " column 9",
        failure(file, columns("src=1,dst=2,time=9")));
  }

  @Test
  void aMappedFieldThatIsNotANumberNamesTheLineAndTheOption() {
    Path file = write(dir, "x.txt", "1 2 3\n1 b 4\n");
    assertEquals(
        file + ":2: column 2 (dst in --columns): expected a non-negative integer, found \"b\"",
        failure(file, columns("src=1,dst=2,time=3")));
  }

  @Test
  void positionsDoNotApplyToFormatsWithTheirOwnColumns() {
    assertEquals(
        "--columns by position applies to delimited rows (--format csv, snap or snap-signed),"
            + " not to jodie",
        failure(CONTACTS, columns("src=1,dst=2,time=3").withFormat(DataFormat.JODIE)));
  }
}
