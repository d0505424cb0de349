package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.bench.DeviceRecommendation;
import dev.depbloom.bench.LocalBatchRecommendation;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.HotColdRows;
import dev.depbloom.profile.IntraBatchStaleness;
import dev.depbloom.profile.PartitionMeasure;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.profile.ReadRule;
import dev.depbloom.profile.ReadStyle;
import dev.depbloom.profile.Recommendation;
import java.util.List;
import java.util.Locale;

/** A {@link DependencyProfile} as aligned tables for people and as one JSON object. */
final class ProfileReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ProfileReport() {}

  static String tables(DependencyProfile p, String source, double seconds) {
    ProfileSettings s = p.settings();
    StringBuilder t = new StringBuilder();
    line(
        t,
        "Dependency profile of %s: training events %,d..%,d, G = %d devices, B = %d",
        source,
        p.from(),
        p.to(),
        s.devices(),
        s.batchSize());
    partitions(t, p);
    crossChainByChains(t, p);
    mergeTies(t, p);
    staleness(t, p);
    hotCold(t, p);
    Recommendation r = p.recommendation();
    line(t, "");
    line(
        t,
        "Recommendation: window %,d, partitioner %s, chains P = %d, micro-batches k = %d",
        r.window(),
        r.partitioner(),
        r.chains(),
        r.microBatches());
    line(t, "  %s", r.reason());
    line(t, "");
    line(t, "profiled in %.1f s", seconds);
    return t.toString();
  }

  private static void partitions(StringBuilder t, DependencyProfile p) {
    line(t, "");
    line(
        t,
        "Partitions (lost: events / endpoint reads that miss the latest earlier write, event by"
            + " event; batched: events reading older memory than sequential at batch B, on the"
            + " candidate's batches of k B, without / with refinement, %s; the recommendation"
            + " uses batched without refinement)",
        p.settings().readRule().label());
    line(
        t,
        "%8s  %-11s  %2s  %2s  %11s  %18s  %18s  %15s  %7s",
        "window",
        "partitioner",
        "P",
        "k",
        "cross-chain",
        "lost owned-rows",
        "lost own-writes",
        "batched",
        "balance");
    for (PartitionMeasure m : p.partitions()) {
      line(
          t,
          "%,8d  %-11s  %2d  %2d  %11s  %8s / %7s  %8s / %7s  %6s / %6s  %7.3f",
          m.window(),
          m.partitioner(),
          m.chains(),
          p.settings().devices() / m.chains(),
          percent(m.crossChainShare()),
          percent(m.ownedRows().lostEventShare()),
          percent(m.ownedRows().lostReadShare()),
          percent(m.ownWrites().lostEventShare()),
          percent(m.ownWrites().lostReadShare()),
          percent(m.batched().of(p.settings().readRule()).lostEventShare()),
          percent(m.refined().of(p.settings().readRule()).lostEventShare()),
          m.balance());
    }
  }

  /** The paper's Fig. 5a: cross-chain share against P, contiguous vs topology, per window. */
  private static void crossChainByChains(StringBuilder t, DependencyProfile p) {
    List<Partitioner> partitioners = DependencyProfile.partitioners();
    line(t, "");
    line(t, "Cross-chain event share by chain count (the paper's Fig. 5a)");
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%3s", "P"));
    for (int w : p.settings().windows()) {
      for (Partitioner partitioner : partitioners) {
        head.append(String.format(Locale.ROOT, "  %18s", partitioner.name() + " " + count(w)));
      }
    }
    line(t, "%s", head);
    for (int chains : p.settings().chainCounts()) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%3d", chains));
      for (int w : p.settings().windows()) {
        for (Partitioner partitioner : partitioners) {
          PartitionMeasure m = p.partition(w, partitioner.name(), chains);
          row.append(String.format(Locale.ROOT, "  %18s", percent(m.crossChainShare())));
        }
      }
      line(t, "%s", row);
    }
  }

  /** Equal times at window-end merges (coarse timestamps), once per window and chain count. */
  private static void mergeTies(StringBuilder t, DependencyProfile p) {
    line(t, "");
    line(
        t,
        "Window-end merges at equal times (rows whose latest write ties in time with another"
            + " view's row: decided by the writing event's stream index; a merge by time alone"
            + " would lose the last column)");
    line(
        t, "%8s  %2s  %13s  %9s  %22s", "window", "P", "rows merged", "tied", "lost by time alone");
    for (PartitionMeasure m : p.partitions()) {
      if (m.chains() > 1 && m.partitioner().equals("contiguous")) {
        line(
            t,
            "%,8d  %2d  %,13d  %9s  %22s",
            m.window(),
            m.chains(),
            m.mergeTies().mergedRows(),
            percent(m.mergeTies().tiedShare()),
            percent(m.mergeTies().lostByTimeOnlyShare()));
      }
    }
  }

  private static void staleness(StringBuilder t, DependencyProfile p) {
    line(t, "");
    line(t, "Intra-batch staleness (events with an endpoint written earlier in the same batch)");
    line(
        t,
        "%2s  %11s  %7s  %24s  %24s",
        "k",
        "large batch",
        "stale",
        "within micro-batch of B",
        "recoverable (refinement)");
    for (IntraBatchStaleness s : p.staleness()) {
      line(
          t,
          "%2d  %,11d  %7s  %24s  %24s",
          s.microBatches(),
          s.batchSize() * s.microBatches(),
          percent(s.staleShare()),
          percent(s.residualShare()),
          percent(s.recoverableShare()));
    }
  }

  private static void hotCold(StringBuilder t, DependencyProfile p) {
    line(t, "");
    line(
        t,
        "Written rows the next batch reads (hot) or not (cold); +neg: with one negative per"
            + " event");
    line(
        t,
        "%8s  %12s  %12s  %15s  %15s",
        "batch",
        "roots cold",
        "+neg cold",
        "recent10 hot",
        "+neg hot");
    for (int batch : p.hotCold().stream().mapToInt(HotColdRows::batchSize).distinct().toArray()) {
      line(
          t,
          "%,8d  %12s  %12s  %15s  %15s",
          batch,
          percent(p.hotCold(batch, ReadStyle.ROOTS, false).coldShare()),
          percent(p.hotCold(batch, ReadStyle.ROOTS, true).coldShare()),
          percent(p.hotCold(batch, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, false).hotShare()),
          percent(p.hotCold(batch, ReadStyle.ROOTS_AND_RECENT_NEIGHBORS, true).hotShare()));
    }
  }

  /** The candidates priced on a device model, best first, and its recommendation. */
  static String priced(DeviceRecommendation.Result r) {
    StringBuilder t = new StringBuilder();
    line(t, "");
    line(
        t,
        "Spread placement (one micro-batch a device, P x k = G), priced on the GPU device model"
            + " '%s' (projected from one recorded item; events at risk as above)",
        r.deviceModel());
    line(
        t,
        "%8s  %-11s  %2s  %2s  %9s  %10s  %14s",
        "window",
        "partitioner",
        "P",
        "k",
        "at risk",
        "round ms",
        "events/s");
    for (DeviceRecommendation.Priced c : r.candidates()) {
      line(
          t,
          "%,8d  %-11s  %2d  %2d  %9s  %10.2f  %,14.0f",
          c.measure().window(),
          c.measure().partitioner(),
          c.measure().chains(),
          c.microBatches(),
          percent(c.risk()),
          1e3 * c.roundSeconds(),
          c.eventsPerSecond());
    }
    line(t, "");
    line(t, "Spread recommendation %s", r.reason());
    return t.toString();
  }

  /** The local placement's micro-batch counts priced, and the recommended one. */
  static String local(LocalBatchRecommendation.Result r) {
    StringBuilder t = new StringBuilder();
    line(t, "");
    line(
        t,
        "Local placement (each chain's k x B refined on its GPU), priced on '%s' (projected):",
        r.deviceModel());
    line(
        t,
        "%2s  %10s  %14s  %8s  %12s  %4s",
        "k",
        "round ms",
        "events/s",
        "x k=1",
        "steps/epoch",
        "pays");
    for (LocalBatchRecommendation.Priced c : r.candidates()) {
      line(
          t,
          "%2d  %10.2f  %,14.0f  %8.2f  %12d  %4s",
          c.microBatches(),
          1e3 * c.roundSeconds(),
          c.eventsPerSecond(),
          c.speedup(),
          c.stepsPerEpoch(),
          c.pays() ? "yes" : "no");
    }
    line(t, "");
    line(t, "Local recommendation %s", r.reason());
    return t.toString();
  }

  static String json(
      DependencyProfile p,
      String source,
      double seconds,
      DeviceRecommendation.Result priced,
      LocalBatchRecommendation.Result local)
      throws JsonProcessingException {
    ProfileSettings s = p.settings();
    ObjectNode root = JSON.createObjectNode();
    root.put("source", source);
    root.put("from", p.from());
    root.put("to", p.to());
    root.put("devices", s.devices());
    root.put("batchSize", s.batchSize());
    root.put("readRule", s.readRule().label());
    ArrayNode windows = root.putArray("windows");
    s.windows().forEach(windows::add);
    ArrayNode partitions = root.putArray("partitions");
    for (PartitionMeasure m : p.partitions()) {
      partitions.add(partition(m, s.devices()));
    }
    ArrayNode staleness = root.putArray("staleness");
    for (IntraBatchStaleness st : p.staleness()) {
      ObjectNode o = staleness.addObject();
      o.put("microBatches", st.microBatches());
      o.put("largeBatch", st.batchSize() * st.microBatches());
      o.put("staleShare", st.staleShare());
      o.put("residualShare", st.residualShare());
      o.put("recoverableShare", st.recoverableShare());
    }
    ArrayNode hotCold = root.putArray("hotCold");
    for (HotColdRows h : p.hotCold()) {
      ObjectNode o = hotCold.addObject();
      o.put("batchSize", h.batchSize());
      o.put("reads", h.readStyle().label());
      o.put("withNegatives", h.withNegatives());
      o.put("hotShare", h.hotShare());
      o.put("coldShare", h.coldShare());
      o.put("writtenRows", h.writtenRows());
    }
    Recommendation r = p.recommendation();
    ObjectNode rec = root.putObject("recommendation");
    rec.put("window", r.window());
    rec.put("partitioner", r.partitioner());
    rec.put("chains", r.chains());
    rec.put("microBatches", r.microBatches());
    rec.put("reason", r.reason());
    if (priced != null) {
      deviceRecommendation(root.putObject("deviceRecommendation"), priced, local);
    }
    root.put("seconds", Math.round(seconds * 100) / 100.0);
    return JSON.writeValueAsString(root);
  }

  /** Fills {@code d} with the priced recommendation and, when given, the local one. */
  private static void deviceRecommendation(
      ObjectNode d, DeviceRecommendation.Result priced, LocalBatchRecommendation.Result local) {
    d.put("deviceModel", priced.deviceModel());
    d.put("window", priced.chosen().measure().window());
    d.put("partitioner", priced.chosen().measure().partitioner());
    d.put("chains", priced.chosen().measure().chains());
    d.put("microBatches", priced.chosen().microBatches());
    d.put("projectedEventsPerSecond", priced.chosen().eventsPerSecond());
    d.put("reason", priced.reason());
    if (local != null) {
      ObjectNode l = d.putObject("local");
      l.put("microBatches", local.chosen().microBatches());
      l.put("projectedEventsPerSecond", local.chosen().eventsPerSecond());
      l.put("minSteps", local.minSteps());
      l.put("reason", local.reason());
      ArrayNode cs = l.putArray("candidates");
      for (LocalBatchRecommendation.Priced c : local.candidates()) {
        ObjectNode o = cs.addObject();
        o.put("microBatches", c.microBatches());
        o.put("roundSeconds", c.roundSeconds());
        o.put("projectedEventsPerSecond", c.eventsPerSecond());
        o.put("speedup", c.speedup());
        o.put("stepsPerEpoch", c.stepsPerEpoch());
        o.put("pays", c.pays());
      }
    }
  }

  private static ObjectNode partition(PartitionMeasure m, int devices) {
    ObjectNode o = JSON.createObjectNode();
    o.put("window", m.window());
    o.put("partitioner", m.partitioner());
    o.put("chains", m.chains());
    o.put("microBatches", devices / m.chains());
    o.put("crossChainShare", m.crossChainShare());
    for (ReadRule rule : ReadRule.values()) {
      ObjectNode lost =
          o.putObject(rule == ReadRule.OWNED_ROWS ? "lostOwnedRows" : "lostOwnWrites");
      lost.put("eventShare", m.lost(rule).lostEventShare());
      lost.put("readShare", m.lost(rule).lostReadShare());
      ObjectNode batched =
          o.putObject(rule == ReadRule.OWNED_ROWS ? "batchedOwnedRows" : "batchedOwnWrites");
      batched.put("eventShare", m.batched().of(rule).lostEventShare());
      batched.put("readShare", m.batched().of(rule).lostReadShare());
      batched.put("refinedEventShare", m.refined().of(rule).lostEventShare());
      batched.put("refinedReadShare", m.refined().of(rule).lostReadShare());
    }
    o.put("balance", m.balance());
    ObjectNode ties = o.putObject("mergeTies");
    ties.put("mergedRows", m.mergeTies().mergedRows());
    ties.put("tiedRows", m.mergeTies().tiedRows());
    ties.put("lostByTimeOnly", m.mergeTies().lostByTimeOnly());
    return o;
  }

  private static void line(StringBuilder t, String format, Object... args) {
    t.append(String.format(Locale.ROOT, format, args)).append('\n');
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * share);
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
