package dev.depbloom.cli;

import picocli.CommandLine;

/** Version of the project and of the tensor engine, for {@code --version}. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {
      "depbloom " + (version != null ? version : "(development build)"),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
