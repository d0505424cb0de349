package dev.depbloom.data.load;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.DataFormatException;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.io.CountingLineReader;
import dev.depbloom.data.store.EventStoreReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one entry point for reading event data: {@code load(path, options)} detects the format
 * (unless {@link LoadOptions#format()} names it), reads the file (plain or gzip, recognised by its
 * magic bytes) and returns the {@link EventStream}, sorted by time with dense node ids.
 *
 * <p>Every mistake in the input is an {@link InputException}; mistakes inside a file are {@link
 * DataFormatException}s naming the file, the 1-based line and what was expected.
 */
public final class EventLoader {
  private EventLoader() {}

  /** Loads the file or directory at {@code path}. */
  public static EventStream load(Path path, LoadOptions options) {
    if (!Files.exists(path)) {
      throw new InputException(path + ": no such file or directory");
    }
    if (options.columns() != null && options.columns().byPosition()) {
      checkColumnsApply(options.format(), options);
      try (CountingLineReader lines = TextLines.open(path)) {
        return PositionalColumnsLoader.load(lines, options);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    DataFormat format = resolveFormat(path, options);
    return switch (format) {
      case TGL -> TglDirectoryLoader.load(path, options);
      case DYGLIB -> DyglibLoader.load(path, options);
      case JODIE, SNAP, SNAP_SIGNED, CSV -> {
        try (CountingLineReader lines = TextLines.open(path)) {
          yield loadText(lines, format, options);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      case BINARY -> {
        EventStream stored;
        try {
          stored = EventStoreReader.read(path);
        } catch (IOException e) {
          throw new InputException(path + ": cannot read event store: " + e.getMessage(), e);
        }
        yield options.bipartite() != null ? stored.withBipartite(options.bipartite()) : stored;
      }
    };
  }

  /**
   * Loads a single-file text format (JODIE, SNAP, SNAP signed, header CSV) from a stream, plain or
   * gzip; {@code source} names it in messages. Formats that need sibling files (TGL, DyGLib) need a
   * path.
   */
  public static EventStream load(InputStream in, String source, LoadOptions options) {
    InputStream text = TextLines.decompress(in, source);
    if (options.columns() != null && options.columns().byPosition()) {
      checkColumnsApply(options.format(), options);
      return PositionalColumnsLoader.load(new CountingLineReader(text, source), options);
    }
    DataFormat format = options.format();
    if (format == null) {
      format =
          options.columns() != null
              ? DataFormat.CSV
              : FormatDetector.detect(
                  TextLines.readPrefix(text, FormatDetector.PREFIX_BYTES, source), source);
    }
    checkColumnsApply(format, options);
    return switch (format) {
      case JODIE, SNAP, SNAP_SIGNED, CSV ->
          loadText(new CountingLineReader(text, source), format, options);
      case TGL, DYGLIB, BINARY ->
          throw new InputException(
              source + ": the " + format + " format needs a path, not a stream");
    };
  }

  /** The format {@code load} would read {@code path} as, without reading the events. */
  public static DataFormat detectFormat(Path path) {
    return FormatDetector.detect(path);
  }

  /** The format names {@code --format} accepts, comma-separated, e.g. {@code snap-signed}. */
  public static String formatNames() {
    return FormatDetector.formatNames();
  }

  /** The {@code --format} spelling of {@code format}, e.g. {@code snap-signed}. */
  public static String formatName(DataFormat format) {
    return FormatDetector.formatName(format);
  }

  private static DataFormat resolveFormat(Path path, LoadOptions options) {
    DataFormat format = options.format();
    if (format == null) {
      format = options.columns() != null ? DataFormat.CSV : FormatDetector.detect(path);
    }
    checkColumnsApply(format, options);
    return format;
  }

  /**
   * Column names need a header CSV; positions need delimited rows (csv, snap, snap-signed or a
   * format left to detect, {@code format} null).
   */
  private static void checkColumnsApply(DataFormat format, LoadOptions options) {
    ColumnMapping columns = options.columns();
    if (columns == null || format == null || format == DataFormat.CSV) {
      return;
    }
    if (!columns.byPosition()) {
      throw new InputException(
          "--columns with header names applies to header CSV files (--format csv), not to "
              + FormatDetector.formatName(format)
              + "; for a file without a header give the columns by 1-based position, e.g."
              + " --columns src=1,dst=2,time=3");
    }
    if (format != DataFormat.SNAP && format != DataFormat.SNAP_SIGNED) {
      throw new InputException(
          "--columns by position applies to delimited rows (--format csv, snap or"
              + " snap-signed), not to "
              + FormatDetector.formatName(format));
    }
  }

  private static EventStream loadText(
      CountingLineReader lines, DataFormat format, LoadOptions options) {
    return switch (format) {
      case JODIE -> JodieCsvLoader.load(lines, options);
      case SNAP -> HeaderlessEdgeListLoader.snap(lines, options);
      case SNAP_SIGNED -> HeaderlessEdgeListLoader.signed(lines, options);
      case CSV -> HeaderCsvLoader.load(lines, options);
      case TGL, DYGLIB, BINARY -> throw new IllegalArgumentException(format + " is not text");
    };
  }
}
