package dev.depbloom.train;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON-lines form of {@link EpochMetrics}: flat keys, stage seconds by stage key. */
final class MetricsLine {
  private MetricsLine() {}

  static Map<String, Object> of(EpochMetrics e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("epoch", e.epoch());
    m.put("trainLoss", e.trainLoss());
    m.put("trainEvents", e.trainEvents());
    m.put("trainSeconds", e.trainSeconds());
    m.put("trainEventsPerSecond", e.trainEventsPerSecond());
    m.put("valAp", e.valAp());
    m.put("valAuc", e.valAuc());
    m.put("valSeconds", e.valSeconds());
    m.putAll(e.stageSeconds());
    return m;
  }

  static EpochMetrics parse(JsonNode n) {
    Map<String, Double> stages = new LinkedHashMap<>();
    for (Stage s : Stage.values()) {
      JsonNode v = n.get(s.key());
      if (v != null) {
        stages.put(s.key(), v.asDouble());
      }
    }
    return new EpochMetrics(
        n.get("epoch").asInt(),
        n.get("trainLoss").asDouble(),
        n.get("trainEvents").asLong(),
        n.get("trainSeconds").asDouble(),
        n.get("valAp").asDouble(),
        n.get("valAuc").asDouble(),
        n.get("valSeconds").asDouble(),
        stages);
  }
}
