package dev.depbloom.data.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.data.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnMappingTest {
  @Test
  void parsesAllFourKeysWithPlusOrSemicolonBetweenFeatures() {
    assertEquals(
        new ColumnMapping("source", "destination", "timestamp", List.of("w", "x", "y")),
        ColumnMapping.parse("src=source,dst=destination,time=timestamp,features=w+x;y"));
  }

  @Test
  void featuresMayBeLeftOut() {
    assertEquals(
        new ColumnMapping("a", "b", "c", List.of()), ColumnMapping.parse("time=c,dst=b,src=a"));
  }

  @Test
  void aMissingRequiredKeyIsAnInputError() {
    InputException e = assertThrows(InputException.class, () -> ColumnMapping.parse("src=a,dst=b"));
    assertEquals(
        "--columns \"src=a,dst=b\" must name src, dst and time, e.g."
            + " src=source,dst=destination,time=timestamp,features=w (header names) or"
            + " src=1,dst=2,time=3 (1-based positions)",
        e.getMessage());
  }

  @Test
  void wholeNumbersArePositionsAndNamesAreNot() {
    ColumnMapping positions = ColumnMapping.parse("src=1,dst=2,time=3,features=5+4");
    assertEquals(true, positions.byPosition());
    assertEquals(List.of("5", "4"), positions.features());
    assertEquals(false, ColumnMapping.parse("src=a,dst=b,time=c").byPosition());
  }

  @Test
  void positionsRoundTripThroughTheirText() {
    ColumnMapping m = ColumnMapping.parse("time=3,src=1,dst=2,features=7");
    assertEquals("src=1,dst=2,time=3,features=7", m.toString());
    assertEquals(m, ColumnMapping.parse(m.toString()));
  }

  @Test
  void positionZeroIsRefusedNamingTheOption() {
    InputException e =
        assertThrows(InputException.class, () -> ColumnMapping.parse("src=0,dst=1,time=2"));
    assertEquals(
        "--columns src=0: positions count from 1 (src=1 is the first column); expected 1 to"
            + " 999999999",
        e.getMessage());
  }

  @Test
  void aNumberThatIsNoWholePositionIsRefusedNamingTheOption() {
    InputException e =
        assertThrows(InputException.class, () -> ColumnMapping.parse("src=1,dst=2,time=2.5"));
    assertEquals(
        "--columns time=2.5: expected a 1-based column position (a whole number, e.g. time=1)"
            + " or a header name",
        e.getMessage());
    assertThrows(InputException.class, () -> ColumnMapping.parse("src=-1,dst=2,time=3"));
  }

  @Test
  void mixingPositionsAndNamesIsRefused() {
    InputException e =
        assertThrows(InputException.class, () -> ColumnMapping.parse("src=1,dst=2,time=when"));
    assertEquals(
        "--columns src=1,dst=2,time=when: mixes positions and header names; give every column"
            + " by 1-based position (e.g. src=1,dst=2,time=3) or every column by header name",
        e.getMessage());
  }

  @Test
  void anUnknownKeyIsNamed() {
    InputException e =
        assertThrows(InputException.class, () -> ColumnMapping.parse("src=a,dst=b,when=c"));
    assertEquals(
        "--columns: unknown key \"when\"; expected src, dst, time or features", e.getMessage());
  }
}
