package dev.depbloom.data;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Where test data lives: golden fixtures on the class path, the shared real data, temp files. */
public final class DataFiles {
  private DataFiles() {}

  /** A fixture under src/test/resources/dev/depbloom/data. */
  public static Path fixture(String name) {
    try {
      return Path.of(DataFiles.class.getResource("/dev/depbloom/data/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A file of the shared real data folder, for tests tagged {@code shared-data} (the build runs
   * them when {@code ../shared/data} exists); fails, never skips, when the file is missing.
   */
  public static Path shared(String name) {
    String folder = System.getProperty("depbloom.sharedData");
    assertNotNull(folder, "system property depbloom.sharedData is not set (surefire sets it)");
    Path file = Path.of(folder, name);
    assertTrue(Files.exists(file), file + " is missing");
    return file;
  }

  public static Path write(Path dir, String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Path writeGzip(Path dir, String name, String text) {
    Path file = dir.resolve(name);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
