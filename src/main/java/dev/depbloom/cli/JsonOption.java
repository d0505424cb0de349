package dev.depbloom.cli;

import picocli.CommandLine.Option;

/** {@code --json}: the command's result as one JSON object on one line, the last it prints. */
final class JsonOption {
  @Option(
      names = "--json",
      description = "Print the result as one JSON object on one line, the last of standard output.")
  boolean json;
}
