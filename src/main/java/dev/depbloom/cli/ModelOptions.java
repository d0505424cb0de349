package dev.depbloom.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options of commands that train a shipped model: which one, and overrides of its config. */
final class ModelOptions {
  @Option(
      names = "--model",
      paramLabel = "NAME",
      defaultValue = "tgn",
      description =
          "jodie, tgn, apan, tgat or dysat (TGL's published configurations; default: tgn),"
              + " or tgn-wide (TGN at DyGLib's widths, memory and embedding 172, 8 neighbors).")
  String name;

  @Option(
      names = "--set",
      paramLabel = "SECTION.KEY=VALUE",
      description = "Overrides one config key, e.g. --set memory.dim_out=50 (repeatable).")
  Map<String, String> overrides = new LinkedHashMap<>();
}
