package dev.depbloom.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
            + " src=source,dst=destination,time=timestamp,features=w",
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
