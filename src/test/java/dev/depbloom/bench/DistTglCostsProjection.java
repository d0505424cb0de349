package dev.depbloom.bench;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.projection.DaemonRules;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.GpuRoundModel;
import dev.depbloom.projection.RoundTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 45's DistTGL costs: DistTGL rows at {@code G = 8} on Wikipedia TGN (172-wide edge
 * features), recorded here over their first {@code rounds} rounds ({@link WorkRecording}) and
 * priced on GPU device models under {@link DaemonRules}: DistTGL's code ({@link
 * DaemonRules#DISTTGL}), each of its rules switched off alone, the rules used until 2026-12-06, and
 * the one known difference left (reads 1.22x: DistTGL deduplicates its positive and negative graphs
 * apart). Prints the mean projected round (ms) and each variant's difference from DistTGL's code:
 * what the earlier rules over- or understated, and what the difference left could add. Projected,
 * not measured. Not a unit test. Run after {@code mvn package}: {@code java -cp
 * target/test-classes:target/classes:target/lib/* dev.depbloom.bench.DistTglCostsProjection} with
 * {@code -Drounds=20 -Dmodels=a100-pcie,h200}.
 */
public final class DistTglCostsProjection {
  private DistTglCostsProjection() {}

  public static void main(String[] args) {
    int rounds = Integer.getInteger("rounds", 20);
    List<String> models = List.of(System.getProperty("models", "a100-pcie,h200").split(","));
    EventStream data = EmbeddedDatasets.wikipedia();
    Map<String, DaemonRules> variants = new LinkedHashMap<>();
    DaemonRules d = DaemonRules.DISTTGL;
    variants.put("DistTGL's code", d);
    variants.put(
        "edge features once per distinct edge", new DaemonRules(false, true, true, true, 1));
    variants.put("inputs through pinned memory", new DaemonRules(true, false, true, true, 1));
    variants.put("write into fresh pageable memory", new DaemonRules(true, true, false, true, 1));
    variants.put("daemon in series with the trainers", new DaemonRules(true, true, true, false, 1));
    variants.put("rules until 2026-12-06", DaemonRules.UNTIL_2026_12_06);
    variants.put(
        "reads 1.22x (positive, negative apart)", new DaemonRules(true, true, true, true, 1.22));
    for (int[] ijk : new int[][] {{1, 8, 1}, {1, 1, 8}, {2, 1, 4}, {1, 2, 4}, {8, 1, 1}}) {
      String label =
          String.format(Locale.ROOT, "disttgl i=%d j=%d k=%d B=600", ijk[0], ijk[1], ijk[2]);
      Map<String, String> o = new LinkedHashMap<>();
      o.put("train.batch_size", "600");
      o.put("schedule.name", "disttgl");
      o.put("schedule.devices", "8");
      o.put("schedule.minibatch_parallelism", String.valueOf(ijk[0]));
      o.put("schedule.epoch_parallelism", String.valueOf(ijk[1]));
      o.put("schedule.memory_parallelism", String.valueOf(ijk[2]));
      System.err.printf(Locale.ROOT, "recording %s: %d rounds%n", label, rounds);
      List<RoundWork> w = WorkRecording.firstEpoch(data, "tgn", o, 172, rounds);
      w = w.subList(0, Math.min(rounds, w.size()));
      for (String m : models) {
        DeviceModel model = DeviceModel.load(m);
        System.out.printf(Locale.ROOT, "%n%s on %s, mean of %d rounds:%n", label, m, w.size());
        System.out.println("| rules | round ms | vs DistTGL's code | host copies ms | daemon ms |");
        System.out.println("|---|---|---|---|---|");
        double base = 0;
        for (var v : variants.entrySet()) {
          RoundTime t =
              mean(w, new GpuRoundModel(model, MemoryPlacement.HOST_DAEMON, 8, v.getValue()));
          if (v.getValue() == d) {
            base = t.seconds();
          }
          System.out.printf(
              Locale.ROOT,
              "| %s | %.3f | %+.1f%% | %.3f | %.3f |%n",
              v.getKey(),
              1e3 * t.seconds(),
              100 * (t.seconds() / base - 1),
              1e3 * t.hostTraffic(),
              1e3 * t.daemon());
        }
      }
    }
  }

  /** The rounds' mean projected time, each round after the one before. */
  private static RoundTime mean(List<RoundWork> rounds, GpuRoundModel model) {
    RoundTime sum = RoundTime.ZERO;
    double previous = 0;
    for (RoundWork w : rounds) {
      RoundTime t = model.round(w, previous);
      sum = sum.plus(t);
      previous = t.seconds();
    }
    double n = rounds.size();
    return new RoundTime(
        sum.seconds() / n,
        sum.compute() / n,
        sum.launch() / n,
        sum.hostTraffic() / n,
        sum.daemon() / n,
        sum.link() / n,
        sum.allReduce() / n,
        sum.sample() / n);
  }
}
