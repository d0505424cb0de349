package dev.depbloom.data.load;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.GzipSniffer;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.ZipException;

/**
 * Opening text data files (plain or gzip) as counted lines, and the first-line checks they share.
 */
final class TextLines {
  private TextLines() {}

  /** The lines of {@code file}, decompressed when it is gzip; a missing file is named. */
  static CountingLineReader open(Path file) {
    return new CountingLineReader(openDecompressed(file), file.toString());
  }

  /** The content of {@code file}, decompressed when it is gzip; supports mark and reset. */
  static InputStream openDecompressed(Path file) {
    if (Files.isDirectory(file)) {
      throw new InputException(file + ": is a directory; expected a data file");
    }
    try {
      InputStream raw = Files.newInputStream(file);
      try {
        return decompress(raw, file.toString());
      } catch (RuntimeException e) {
        raw.close();
        throw e;
      }
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new InputException(file + ": permission denied");
    } catch (IOException e) {
      throw new InputException("cannot open " + file + ": " + e.getMessage(), e);
    }
  }

  /** Up to {@code limit} bytes from the start of {@code in}, which is reset to where it was. */
  static byte[] readPrefix(InputStream in, int limit, String source) {
    try {
      in.mark(limit);
      byte[] prefix = in.readNBytes(limit);
      in.reset();
      return prefix;
    } catch (EOFException | ZipException e) {
      throw new DataFormatException(
          source,
          0,
          "the compressed data is truncated or corrupt"
              + " near the start ("
              + e.getMessage()
              + "); expected a complete gzip stream");
    } catch (IOException e) {
      throw new InputException("cannot read " + source + ": " + e.getMessage(), e);
    }
  }

  /** {@code raw} decompressed when it starts with the gzip magic; supports mark and reset. */
  static InputStream decompress(InputStream raw, String source) {
    try {
      return GzipSniffer.decompressIfGzip(raw);
    } catch (IOException e) {
      throw new DataFormatException(
          source,
          0,
          "is not readable as gzip ("
              + e.getMessage()
              + "); expected a complete gzip stream or plain text");
    }
  }

  /**
   * Advances to the next line that is neither blank nor (when {@code skipComments}) a {@code #}
   * comment; false at the end of the input.
   */
  static boolean nextContent(CountingLineReader lines, boolean skipComments) {
    while (lines.next()) {
      if (!lines.isBlank() && !(skipComments && isComment(lines))) {
        return true;
      }
    }
    return false;
  }

  static boolean isComment(CountingLineReader lines) {
    byte[] b = lines.bytes();
    for (int i = lines.start(); i < lines.end(); i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return b[i] == '#';
      }
    }
    return false;
  }

  /** Reads the header line, or fails on an empty file saying what was expected. */
  static void requireHeader(CountingLineReader lines, String expected) {
    if (!nextContent(lines, false)) {
      throw new DataFormatException(
          lines.source(),
          Math.max(1, lines.lineNumber()),
          "the file is empty; expected a header line " + expected);
    }
  }

  /** Fails when a file ended after its header without events. */
  static void requireEvents(CountingLineReader lines, EventTableBuilder events, String expected) {
    if (events.size() == 0) {
      throw noEvents(lines, expected);
    }
  }

  /** The error for a file that ended after its header. */
  static DataFormatException noEvents(CountingLineReader lines, String expected) {
    return new DataFormatException(
        lines.source(),
        lines.lineNumber() + 1,
        "the file has a header but no events; expected rows " + expected);
  }
}
