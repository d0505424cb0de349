package dev.depbloom.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The data set a command reads: {@code --data} and how to load it ({@link LoadOptionsMixin}). */
final class DataOptions {
  @Option(
      names = "--data",
      paramLabel = "PATH",
      description = "Data set (file or directory); default: the embedded Wikipedia stream.")
  String path;

  @Mixin LoadOptionsMixin load;

  /** The data set as a run records it: the path given, or the embedded one. */
  String source() {
    return path == null ? RunSetup.EMBEDDED : path;
  }
}
