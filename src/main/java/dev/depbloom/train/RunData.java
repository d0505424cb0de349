package dev.depbloom.train;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.ZeroFeatureMatrix;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.LoadOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * A run's data as the command line names it: a path or the embedded data set, with zero edge
 * features of a width where asked for, and its fingerprint (so that a run is resumed, evaluated or
 * served only on the events it was trained on).
 */
public final class RunData {
  /** The source name of the embedded Wikipedia stream. */
  public static final String EMBEDDED = "embedded:wikipedia";

  private RunData() {}

  /** The data: a path, or the embedded data set; zero edge features of a width if asked for. */
  public static EventStream load(String source, LoadOptions options, Integer edgeFeatureDim) {
    EventStream events =
        source == null || source.equals(EMBEDDED)
            ? EmbeddedDatasets.wikipedia(options)
            : EventLoader.load(Path.of(source), options);
    if (edgeFeatureDim != null) {
      int have = events.edgeFeatures().dim();
      if (edgeFeatureDim < 0) {
        throw new InputException(
            "--edge-feature-dim: expected a width >= 0, got " + edgeFeatureDim);
      }
      if (have > 0 && have != edgeFeatureDim) {
        throw new InputException(
            "--edge-feature-dim "
                + edgeFeatureDim
                + ": the data already has edge features of"
                + " width "
                + have
                + "; the option only gives zero features to data without them");
      }
      if (have == 0) {
        events =
            events.withEdgeFeatures(new ZeroFeatureMatrix(events.eventCount(), edgeFeatureDim));
      }
    }
    if (events.eventCount() < 3) {
      throw new InputException(
          (source == null ? EMBEDDED : source)
              + ": "
              + events.eventCount()
              + " events are too few to split into training, validation and test");
    }
    return events;
  }

  /** CRC32C of the event columns: a run is only resumed or evaluated on the same events. */
  public static String fingerprint(EventStream events) {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocate(16 * 4096).order(ByteOrder.LITTLE_ENDIAN);
    int[] src = events.sources();
    int[] dst = events.destinations();
    double[] time = events.times();
    for (int i = 0; i < src.length; i++) {
      if (buf.remaining() < 16) {
        buf.flip();
        crc.update(buf);
        buf.clear();
      }
      buf.putInt(src[i]).putInt(dst[i]).putDouble(time[i]);
    }
    buf.flip();
    crc.update(buf);
    return String.format("%08x", crc.getValue());
  }
}
