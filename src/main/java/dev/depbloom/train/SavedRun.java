package dev.depbloom.train;

import com.fasterxml.jackson.databind.JsonNode;
import dev.depbloom.data.DataFormat;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.ColumnMapping;
import dev.depbloom.data.load.LoadOptions;
import dev.depbloom.tensor.ThreadBudget;
import java.util.Map;

/**
 * A run rebuilt from its folder, exactly as it was recorded ({@code run.json}, {@code config.yml}):
 * its data (checked against the recorded fingerprint), split, config, seed and thread budget, so
 * that {@code --resume}, {@code evaluate} and serving see the run that was trained.
 *
 * @param dir the run folder
 * @param run the run, its events relative to their first event
 * @param timeOrigin the time of the data's first event, in the data's own unit: a time {@code t} of
 *     the data is {@code t - timeOrigin} for the run
 * @param fingerprint the data's recorded fingerprint ({@link RunData#fingerprint})
 */
public record SavedRun(RunDirectory dir, TrainingRun run, double timeOrigin, String fingerprint) {

  /** Rebuilds the run of {@code dir}; {@code dataOverride} (or null) replaces the data's source. */
  public static SavedRun open(RunDirectory dir, String dataOverride) {
    JsonNode info = dir.readRunInfo();
    JsonNode data = info.get("data");
    String source = dataOverride != null ? dataOverride : data.get("source").asText();
    LoadOptions options = loadOptions(data);
    Integer edgeDim = data.has("edgeFeatureDim") ? data.get("edgeFeatureDim").asInt() : null;
    EventStream events = RunData.load(source, options, edgeDim);
    String recorded = data.get("fingerprint").asText();
    String actual = RunData.fingerprint(events.relativeToFirstEvent()); // as the run recorded it
    if (!actual.equals(recorded)) {
      throw new InputException(
          source
              + ": these are not the events run "
              + dir.root()
              + " was trained on (fingerprint "
              + actual
              + ", recorded "
              + recorded
              + ")");
    }
    RunConfig config = RunConfig.read(dir.configFile(), info.get("model").asText(), Map.of());
    JsonNode t = info.get("threads");
    TrainingRun run =
        new TrainingRun(
            events,
            source,
            Split.of(events),
            config,
            info.get("seed").asLong(),
            new ThreadBudget(
                t.get("intraOp").asInt(), t.get("blas").asInt(), t.path("workers").asInt(1)),
            t.get("sampler").asInt());
    return new SavedRun(dir, run, events.times()[0], recorded);
  }

  private static LoadOptions loadOptions(JsonNode data) {
    LoadOptions o = LoadOptions.defaults();
    JsonNode format = data.get("format");
    if (format != null && !format.isNull()) {
      o = o.withFormat(DataFormat.valueOf(format.asText().toUpperCase().replace('-', '_')));
    }
    JsonNode columns = data.get("columns");
    if (columns != null && !columns.isNull()) {
      o = o.withColumns(ColumnMapping.parse(columns.asText()));
    }
    o = o.withStrict(data.path("strict").asBoolean(false));
    if (data.has("bipartite")) {
      o = o.withBipartite(data.get("bipartite").asBoolean());
    }
    return o;
  }
}
