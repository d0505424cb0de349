package dev.depbloom.train;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON-lines form of {@link EpochMetrics}: flat keys, stage seconds by stage key, {@code
 * devices} a list of per-device stage seconds.
 */
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
    m.put("devices", e.deviceStageSeconds());
    m.put("parameterChecksum", e.parameterChecksum());
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
    List<Map<String, Double>> devices = new ArrayList<>();
    for (JsonNode d : n.path("devices")) {
      Map<String, Double> perStage = new LinkedHashMap<>();
      d.fields().forEachRemaining(f -> perStage.put(f.getKey(), f.getValue().asDouble()));
      devices.add(perStage);
    }
    JsonNode checksum = n.get("parameterChecksum");
    return new EpochMetrics(
        n.get("epoch").asInt(),
        n.get("trainLoss").asDouble(),
        n.get("trainEvents").asLong(),
        n.get("trainSeconds").asDouble(),
        n.get("valAp").asDouble(),
        n.get("valAuc").asDouble(),
        n.get("valSeconds").asDouble(),
        stages,
        devices,
        checksum == null || checksum.isNull() ? null : checksum.asText());
  }
}
