package dev.depbloom.data;

import java.nio.file.Path;

/** A data file that does not hold what its format promises; the message names file and line. */
public final class DataFormatException extends InputException {
  private final String source;
  private final long line;

  /**
   * @param source the file (or file inside an archive) that is wrong
   * @param line 1-based line number, or 0 when the problem is not tied to one line
   * @param problem what is wrong and what was expected
   */
  public DataFormatException(String source, long line, String problem) {
    super(source + (line > 0 ? ":" + line : "") + ": " + problem);
    this.source = source;
    this.line = line;
  }

  public DataFormatException(Path source, long line, String problem) {
    this(source.toString(), line, problem);
  }

  public String source() {
    return source;
  }

  public long line() {
    return line;
  }
}
