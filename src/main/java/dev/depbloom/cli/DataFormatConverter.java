package dev.depbloom.cli;

import dev.depbloom.data.DataFormat;
import dev.depbloom.data.load.EventLoader;
import java.util.Locale;
import picocli.CommandLine;

/**
 * Reads {@code --format} values as the data layer spells them: {@code tgl}, {@code snap-signed}.
 */
final class DataFormatConverter implements CommandLine.ITypeConverter<DataFormat> {
  @Override
  public DataFormat convert(String value) {
    try {
      return DataFormat.valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(
          "unknown format '" + value + "'; expected one of: " + EventLoader.formatNames());
    }
  }
}
