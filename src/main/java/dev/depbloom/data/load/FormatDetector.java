package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.io.LineFields;
import dev.depbloom.data.store.EventStoreManifest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Tells the format of a data path where that is unambiguous: a directory with {@code manifest.json}
 * is the binary event store; a directory with {@code edges.csv} is TGL; {@code ml_X.csv} (or a
 * directory with one) beside {@code ml_X.npy} is DyGLib; otherwise the first line that is neither
 * blank nor a {@code #} comment decides: TGL's, DyGLib's or JODIE's header, any other header (a
 * non-numeric field) is a header CSV, numbers separated by whitespace are SNAP, four
 * comma-separated numbers are SNAP signed. A line that starts with three numbers and has a column
 * of text is a header-less row no format reads: it asks for positional {@code --columns}. Anything
 * else asks for {@code --format}.
 */
final class FormatDetector {
  /** Enough of a file's start to see its first lines. */
  static final int PREFIX_BYTES = 1 << 16;

  private FormatDetector() {}

  /** The {@code --format} names, as the command line spells them. */
  static String formatNames() {
    return Arrays.stream(DataFormat.values())
        .map(FormatDetector::formatName)
        .collect(Collectors.joining(", "));
  }

  /** A format's {@code --format} spelling: {@code SNAP_SIGNED} is {@code snap-signed}. */
  static String formatName(DataFormat format) {
    return format.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static DataFormat detect(Path path) {
    if (Files.isDirectory(path)) {
      if (Files.isRegularFile(path.resolve(EventStoreManifest.FILE_NAME))) {
        return DataFormat.BINARY;
      }
      if (Files.exists(path.resolve(TglDirectoryLoader.EDGES))) {
        return DataFormat.TGL;
      }
      try (var files = Files.newDirectoryStream(path, "ml_*.csv")) {
        if (files.iterator().hasNext()) {
          return DataFormat.DYGLIB;
        }
      } catch (IOException e) {
        throw new InputException("cannot list " + path + ": " + e.getMessage(), e);
      }
      throw unknown(
          path.toString(),
          "a directory without " + TglDirectoryLoader.EDGES + " (TGL) or ml_*.csv (DyGLib)");
    }
    String name = path.getFileName().toString();
    if (name.startsWith("ml_")
        && name.endsWith(".csv")
        && Files.exists(path.resolveSibling(name.substring(0, name.length() - 4) + ".npy"))) {
      return DataFormat.DYGLIB;
    }
    try (InputStream in = TextLines.openDecompressed(path)) {
      return detect(TextLines.readPrefix(in, PREFIX_BYTES, path.toString()), path.toString());
    } catch (IOException e) {
      throw new InputException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  /** The format of text starting with {@code prefix}, named {@code source} in errors. */
  static DataFormat detect(byte[] prefix, String source) {
    CountingLineReader lines = firstContentLine(prefix, source);
    LineFields fields = new LineFields(lines);
    String first = lines.text().toLowerCase(Locale.ROOT).replace(" ", "");
    if (first.startsWith(JodieCsvLoader.HEADER)) {
      return DataFormat.JODIE;
    }
    int commaFields = fields.splitOn((byte) ',');
    List<String> names = CsvHeader.read(fields).names();
    if (names.get(0).isEmpty() && names.containsAll(List.of("src", "dst", "time"))) {
      return DataFormat.TGL;
    }
    if (names.get(0).isEmpty() && names.containsAll(List.of("u", "i", "ts", "idx"))) {
      return DataFormat.DYGLIB;
    }
    boolean allNumbers = true;
    for (int f = 0; f < commaFields; f++) {
      allNumbers &= fields.isFiniteNumber(f);
    }
    if (commaFields > 1 && !allNumbers) {
      checkNotRowWithText(fields, commaFields, "comma");
      return DataFormat.CSV;
    }
    if (commaFields == 4) {
      return DataFormat.SNAP_SIGNED;
    }
    if (commaFields > 1) {
      throw unknown(
          source,
          "line "
              + lines.lineNumber()
              + " has "
              + commaFields
              + " comma-separated numbers and no header");
    }
    int words = fields.splitOnWhitespace();
    checkNotRowWithText(fields, words, "whitespace");
    boolean numeric = words >= 3;
    for (int f = 0; f < words && numeric; f++) {
      numeric = fields.isFiniteNumber(f);
    }
    if (numeric) {
      return DataFormat.SNAP;
    }
    throw unknown(
        source,
        "line "
            + lines.lineNumber()
            + " is neither a known header nor"
            + " whitespace-separated numbers \"src dst time\"");
  }

  /**
   * A reader of {@code prefix} standing on its first line that is neither blank nor a comment,
   * checked to hold text.
   */
  private static CountingLineReader firstContentLine(byte[] prefix, String source) {
    CountingLineReader lines = new CountingLineReader(new ByteArrayInputStream(prefix), source);
    if (prefix.length == 0) {
      throw new DataFormatException(source, 1, "the file is empty; expected events");
    }
    if (!TextLines.nextContent(lines, true)) {
      throw new DataFormatException(
          source,
          lines.lineNumber() + 1,
          "the file has only blank or" + " # comment lines; expected events");
    }
    for (int i = lines.start(); i < lines.end(); i++) {
      byte c = lines.bytes()[i];
      if (c == 0 || (c < 0x20 && c != '\t')) {
        throw unknown(source, "it does not look like a text file");
      }
    }
    return lines;
  }

  /**
   * A line that starts with three numbers (src, dst, time) is a row, not a header; when a later
   * column holds text (a class label, a name) the edge-list formats cannot read it, and positional
   * {@code --columns} can.
   */
  private static void checkNotRowWithText(LineFields fields, int count, String delimiter) {
    if (count < 4) {
      return;
    }
    for (int f = 0; f < 3; f++) {
      if (!fields.isFiniteNumber(f)) {
        return;
      }
    }
    for (int f = 3; f < count; f++) {
      if (!fields.isNumberLiteral(f)) {
        throw fields.error(
            "column "
                + (f + 1)
                + " holds \""
                + fields.text(f)
                + "\", not a number, in a row of "
                + delimiter
                + "-separated values without header; to read src, dst and time and skip"
                + " such columns, give the columns by 1-based position, e.g."
                + " --columns src=1,dst=2,time=3");
      }
    }
  }

  static InputException unknown(String source, String reason) {
    return new InputException(
        source
            + ": cannot tell the data format ("
            + reason
            + "); choose one with --format: "
            + formatNames());
  }
}
