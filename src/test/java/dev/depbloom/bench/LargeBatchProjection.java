package dev.depbloom.bench;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.GpuRoundModel;
import dev.depbloom.projection.RoundTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 45's Fig. 15 speed half: one device training Wikipedia TGN as a small batch (SB, 600), a
 * large batch (LB, 2,400) and the large batch as {@code k} refined micro-batches of 600 on the one
 * device (DepBloom's local placement, LB+IMR(k)), each recorded here over the first {@code events}
 * training events (kernels and traffic, {@link WorkRecording}) and priced on GPU device models
 * ({@link GpuRoundModel}, memory on the device). Prints projected events/s and the ratio to SB per
 * device model, and the breakdown of one round. Projected, not measured: every parameter of a
 * device model is in its YAML file (src/main/resources/dev/depbloom/devices/). Not a unit test. Run
 * after {@code mvn package}: {@code java -cp target/test-classes:target/classes:target/lib/*
 * dev.depbloom.bench.LargeBatchProjection} with {@code -Devents=48000 -Dmodels=a100-pcie,h200}.
 */
public final class LargeBatchProjection {
  private LargeBatchProjection() {}

  public static void main(String[] args) {
    int events = Integer.getInteger("events", 48_000);
    List<String> models = List.of(System.getProperty("models", "a100-pcie,h200").split(","));
    EventStream data = EmbeddedDatasets.wikipedia();
    int train = Split.of(data).trainEnd();
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    rows.put("SB 600", Map.of("train.batch_size", "600"));
    rows.put("LB 2,400", Map.of("train.batch_size", "2400"));
    for (int k : new int[] {2, 4, 8}) {
      rows.put("LB+IMR(" + k + ") local, " + k + " x 600", local(k, train, "local"));
    }
    rows.put("IMR(4) spread, 4 GPUs", local(4, train, "spread"));
    Map<String, List<RoundWork>> recorded = new LinkedHashMap<>();
    for (var row : rows.entrySet()) {
      int batch = Integer.parseInt(row.getValue().get("train.batch_size"));
      int large =
          batch * Integer.parseInt(row.getValue().getOrDefault("schedule.micro_batches", "1"));
      int rounds = Math.max(1, events / large);
      System.err.printf(Locale.ROOT, "recording %s: %d rounds%n", row.getKey(), rounds);
      recorded.put(
          row.getKey(),
          WorkRecording.firstEpoch(data, "tgn", row.getValue(), 0, rounds).subList(0, rounds));
    }
    System.out.println(
        "| row | GPUs | events/round | "
            + String.join(" | ", models.stream().map(m -> m + " ev/s (x SB)").toList())
            + " |");
    System.out.println("|---|---|---|" + "---|".repeat(models.size()));
    Map<String, Double> sb = new LinkedHashMap<>();
    for (var row : recorded.entrySet()) {
      List<RoundWork> w = row.getValue();
      int gpus = devices(w);
      StringBuilder line =
          new StringBuilder(
              String.format(
                  Locale.ROOT, "| %s | %d | %,d |", row.getKey(), gpus, w.get(0).events()));
      for (String m : models) {
        double evs =
            eventsPerSecond(
                w, new GpuRoundModel(DeviceModel.load(m), MemoryPlacement.DEVICE, gpus));
        sb.putIfAbsent(m, evs);
        line.append(String.format(Locale.ROOT, " %,.0f (%.2f) |", evs, evs / sb.get(m)));
      }
      System.out.println(line);
    }
    System.out.println();
    System.out.println(
        "Kernels of the median round (all its items): fetch, refine, memory update, memory write,"
            + " training (embedding, loss, backward), commit, optimizer:");
    for (var row : recorded.entrySet()) {
      RoundWork mid = row.getValue().get(row.getValue().size() / 2);
      int[] n = new int[5];
      for (RoundWork.ItemWork i : mid.items()) {
        n[0] += i.fetch().size();
        n[1] += i.refine().size();
        n[2] += i.memoryUpdate().size();
        n[3] += i.memoryWrite().size();
        n[4] += i.train().size();
      }
      int commit = 0;
      for (RoundWork.ViewCommit c : mid.commits()) {
        commit += c.kernels().size();
      }
      System.out.printf(
          Locale.ROOT,
          "- %s: %d, %d, %d, %d, %d, %d, %d%n",
          row.getKey(),
          n[0],
          n[1],
          n[2],
          n[3],
          n[4],
          commit,
          mid.optimizer().size());
    }
    for (String m : models) {
      System.out.println();
      System.out.println("One round on " + m + " (the median round's breakdown, ms):");
      for (var row : recorded.entrySet()) {
        List<RoundWork> w = row.getValue();
        GpuRoundModel g =
            new GpuRoundModel(DeviceModel.load(m), MemoryPlacement.DEVICE, devices(w));
        RoundWork mid = w.get(w.size() / 2);
        RoundTime t = g.round(mid, 1.0); // sampling hidden behind a long previous round
        System.out.printf(
            Locale.ROOT,
            "- %s: %.2f ms = compute %.2f + launch %.2f + host copies %.2f + link %.2f"
                + " + all-reduce %.2f%n",
            row.getKey(),
            1e3 * t.seconds(),
            1e3 * t.compute(),
            1e3 * t.launch(),
            1e3 * t.hostTraffic(),
            1e3 * t.link(),
            1e3 * t.allReduce());
      }
    }
  }

  private static Map<String, String> local(int k, int train, String placement) {
    return LocalBatchRecommendation.chain(k, 600, train, placement);
  }

  private static int devices(List<RoundWork> w) {
    int max = 0;
    for (RoundWork.ItemWork i : w.get(0).items()) {
      max = Math.max(max, i.device() + 1);
    }
    return max;
  }

  private static double eventsPerSecond(List<RoundWork> rounds, GpuRoundModel model) {
    return LocalBatchRecommendation.eventsPerSecond(rounds, model);
  }
}
