package dev.depbloom.data.io;

import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.InputException;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * Reads a text file line by line as byte slices of one reusable buffer, counting 1-based line
 * numbers, so a parser can name the line of every mistake without allocating a String per line.
 * Line ends are {@code \n} or {@code \r\n}; the last line may lack one. A UTF-8 byte-order mark at
 * the start of the input (spreadsheet programs write one) is not part of the first line; this is
 * the one place every text format and the format detection skip it.
 *
 * <p>Read failures become {@link DataFormatException}s naming the source and the last line read; a
 * truncated or corrupt gzip stream says so.
 */
public final class CountingLineReader implements Closeable {
  /** A longer line is not a text line of any format we read (e.g. a binary file). */
  public static final int MAX_LINE_BYTES = 1 << 26;

  private static final byte[] UTF8_BYTE_ORDER_MARK = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final InputStream in;
  private final String source;
  private byte[] buffer = new byte[1 << 16];
  private int position; // start of the unread bytes
  private int limit; // end of the valid bytes
  private boolean endOfInput;
  private long lineNumber; // of the current line; 0 before the first
  private int lineStart;
  private int lineEnd; // exclusive, without the line terminator

  public CountingLineReader(InputStream in, String source) {
    this.in = in;
    this.source = source;
  }

  /** Name of what is being read, for messages. */
  public String source() {
    return source;
  }

  /** 1-based number of the current line; 0 before the first call to {@link #next()}. */
  public long lineNumber() {
    return lineNumber;
  }

  /** The buffer holding the current line; valid until the next call to {@link #next()}. */
  public byte[] bytes() {
    return buffer;
  }

  public int start() {
    return lineStart;
  }

  public int end() {
    return lineEnd;
  }

  /** The current line decoded as UTF-8. */
  public String text() {
    return new String(buffer, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
  }

  /** True when the current line holds only spaces and tabs. */
  public boolean isBlank() {
    for (int i = lineStart; i < lineEnd; i++) {
      if (buffer[i] != ' ' && buffer[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Advances to the next line; false at the end of the input. */
  public boolean next() {
    int scanFrom = position;
    while (true) {
      for (int i = scanFrom; i < limit; i++) {
        if (buffer[i] == '\n') {
          takeLine(i, i + 1);
          return true;
        }
      }
      if (endOfInput) {
        if (position < limit) {
          takeLine(limit, limit);
          return true;
        }
        return false;
      }
      scanFrom = limit - position; // already scanned; fill() moves the unread bytes to 0
      fill();
    }
  }

  private void takeLine(int terminator, int nextPosition) {
    lineStart = position;
    if (lineNumber == 0 && startsWithByteOrderMark(terminator)) {
      lineStart += UTF8_BYTE_ORDER_MARK.length;
    }
    lineEnd =
        terminator > lineStart && buffer[terminator - 1] == '\r' ? terminator - 1 : terminator;
    position = nextPosition;
    lineNumber++;
  }

  private boolean startsWithByteOrderMark(int lineLimit) {
    if (lineLimit - lineStart < UTF8_BYTE_ORDER_MARK.length) {
      return false;
    }
    for (int i = 0; i < UTF8_BYTE_ORDER_MARK.length; i++) {
      if (buffer[lineStart + i] != UTF8_BYTE_ORDER_MARK[i]) {
        return false;
      }
    }
    return true;
  }

  /** Moves the unread bytes to the front, grows the buffer if they fill it, and reads more. */
  private void fill() {
    int unread = limit - position;
    if (position > 0) {
      System.arraycopy(buffer, position, buffer, 0, unread);
      position = 0;
      limit = unread;
    }
    if (limit == buffer.length) {
      if (buffer.length >= MAX_LINE_BYTES) {
        throw new DataFormatException(
            source,
            lineNumber + 1,
            "line is longer than " + MAX_LINE_BYTES + " bytes; expected a text file");
      }
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    try {
      int n = in.read(buffer, limit, buffer.length - limit);
      if (n < 0) {
        endOfInput = true;
      } else {
        limit += n;
      }
    } catch (EOFException | ZipException e) {
      throw new DataFormatException(
          source,
          0,
          "the compressed data is truncated or corrupt after line "
              + lineNumber
              + " ("
              + e.getMessage()
              + "); expected a complete gzip stream");
    } catch (IOException e) {
      throw new InputException(
          "cannot read " + source + " after line " + lineNumber + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
