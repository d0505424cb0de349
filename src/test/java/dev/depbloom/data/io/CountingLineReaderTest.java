package dev.depbloom.data.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.data.DataFormatException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class CountingLineReaderTest {
  private static List<String> lines(CountingLineReader reader) {
    List<String> out = new ArrayList<>();
    while (reader.next()) {
      out.add(reader.lineNumber() + ":" + reader.text());
    }
    return out;
  }

  private static CountingLineReader reader(String text) {
    return new CountingLineReader(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.txt");
  }

  @Test
  void linesAreNumberedFromOneAndLoseTheirTerminators() {
    assertEquals(List.of("1:a b", "2:", "3:c"), lines(reader("a b\r\n\nc\n")));
  }

  @Test
  void aByteOrderMarkAtTheStartIsNotPartOfTheFirstLine() {
    assertEquals(List.of("1:a,b", "2:c"), lines(reader("\uFEFFa,b\r\nc\r\n")));
    assertEquals(List.of("1:", "2:x"), lines(reader("\uFEFF\nx")));
  }

  @Test
  void aByteOrderMarkAfterTheStartIsKept() {
    assertEquals(List.of("1:a", "2:\uFEFFb"), lines(reader("a\n\uFEFFb")));
  }

  @Test
  void aLastLineWithoutNewlineIsStillALine() {
    assertEquals(List.of("1:x", "2:y"), lines(reader("x\ny")));
  }

  @Test
  void anEmptyInputHasNoLines() {
    assertEquals(List.of(), lines(reader("")));
  }

  @Test
  void linesLongerThanTheBufferAreReadWhole() {
    char[] wide = new char[200_000];
    Arrays.fill(wide, 'z');
    String longLine = new String(wide);
    List<String> read = lines(reader("a\n" + longLine + "\nb\n"));
    assertEquals(List.of("1:a", "2:" + longLine, "3:b"), read);
  }

  @Test
  void blankMeansOnlySpacesAndTabs() {
    CountingLineReader r = reader(" \t\n x\n");
    assertTrue(r.next());
    assertTrue(r.isBlank());
    assertTrue(r.next());
    assertFalse(r.isBlank());
  }

  @Test
  void aTruncatedGzipStreamNamesTheFileAndTheLastLineRead() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 50_000; i++) {
      text.append(i).append(' ').append(i * 7 % 1000).append(' ').append(i).append('\n');
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(text.toString().getBytes(StandardCharsets.US_ASCII));
    }
    byte[] truncated = Arrays.copyOf(bytes.toByteArray(), bytes.size() / 2);
    InputStream in = GzipSniffer.decompressIfGzip(new ByteArrayInputStream(truncated));
    CountingLineReader r = new CountingLineReader(in, "cut.txt.gz");
    DataFormatException e =
        assertThrows(
            DataFormatException.class,
            () -> {
              while (r.next()) {
                // read to the end
              }
            });
    String expected =
        "cut.txt.gz: the compressed data is truncated or corrupt after line " + r.lineNumber();
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    assertTrue(r.lineNumber() > 1000, "lines read before the cut: " + r.lineNumber());
  }
}
