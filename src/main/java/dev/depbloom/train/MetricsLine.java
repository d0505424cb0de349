package dev.depbloom.train;

import com.fasterxml.jackson.databind.JsonNode;
import dev.depbloom.observe.Stage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON-lines form of {@link EpochMetrics}: flat keys, stage seconds by stage key, {@code
 * devices} a list of per-device stage seconds, {@code bytesSent} the mean bytes a process sent, and
 * for a multi-process run {@code ranks}, each rank's bytes by kind and parameter checksum.
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
    m.put("valLoss", e.valLoss());
    m.put("valSeconds", e.valSeconds());
    m.putAll(e.stageSeconds());
    m.put("devices", e.deviceStageSeconds());
    m.put("parameterChecksum", e.parameterChecksum());
    m.put("bytesSent", e.bytesSentPerRank());
    if (!e.ranks().isEmpty()) {
      List<Map<String, Object>> ranks = new ArrayList<>();
      for (RankMetrics r : e.ranks()) {
        Map<String, Object> rank = new LinkedHashMap<>();
        rank.put("rank", r.rank());
        rank.put("bytesSent", r.bytesSent());
        rank.put("gradientBytes", r.gradientBytes());
        rank.put("memoryBytes", r.memoryBytes());
        rank.put("otherBytes", r.otherBytes());
        rank.put("parameterChecksum", r.parameterChecksum());
        ranks.add(rank);
      }
      m.put("ranks", ranks);
    }
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
    List<RankMetrics> ranks = new ArrayList<>();
    for (JsonNode r : n.path("ranks")) {
      ranks.add(
          new RankMetrics(
              r.get("rank").asInt(),
              r.get("gradientBytes").asLong(),
              r.get("memoryBytes").asLong(),
              r.get("otherBytes").asLong(),
              r.get("parameterChecksum").asText()));
    }
    return new EpochMetrics(
        n.get("epoch").asInt(),
        n.get("trainLoss").asDouble(),
        n.get("trainEvents").asLong(),
        n.get("trainSeconds").asDouble(),
        n.get("valAp").asDouble(),
        n.get("valAuc").asDouble(),
        n.path("valLoss").asDouble(Double.NaN), // absent in runs written before it existed
        n.get("valSeconds").asDouble(),
        stages,
        devices,
        checksum == null || checksum.isNull() ? null : checksum.asText(),
        ranks);
  }
}
