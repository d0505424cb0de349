package dev.depbloom.data.load;

import dev.depbloom.data.EventStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Data sets shipped inside the jar, so every command has real data without a download.
 *
 * <p>{@code wikipedia}: JODIE's Wikipedia edits, 157,474 events between 8,227 users and 1,000 pages
 * (bipartite), without the 172-dim LIWC edge features of the original. Cite Kumar, Zhang, Leskovec,
 * "Predicting Dynamic Embedding Trajectory in Temporal Interaction Networks", KDD 2019.
 */
public final class EmbeddedDatasets {
  /** Where the wikipedia data set lives on the class path. */
  public static final String WIKIPEDIA_RESOURCE = "/dev/depbloom/data/wikipedia.csv.gz";

  private static final String WIKIPEDIA_CITATION = "/dev/depbloom/data/wikipedia.CITATION.txt";

  private EmbeddedDatasets() {}

  /** The wikipedia stream, read with default options. */
  public static EventStream wikipedia() {
    return wikipedia(LoadOptions.defaults());
  }

  /** The wikipedia stream, streamed from the class path through the CSV loader. */
  public static EventStream wikipedia(LoadOptions options) {
    try (InputStream in = resource(WIKIPEDIA_RESOURCE)) {
      return EventLoader.load(in, "classpath:" + WIKIPEDIA_RESOURCE, options);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where the wikipedia data comes from and how to cite it. */
  public static String wikipediaCitation() {
    try (InputStream in = resource(WIKIPEDIA_CITATION)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = EmbeddedDatasets.class.getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException(name + " is missing from the class path (a broken build)");
    }
    return in;
  }
}
