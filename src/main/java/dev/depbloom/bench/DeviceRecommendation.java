package dev.depbloom.bench;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.PartitionMeasure;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.GpuRoundModel;
import dev.depbloom.projection.KernelCost;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A DepBloom recommendation for a GPU device model (issue 31): the dependency profile's candidates
 * (window, partitioner, P, k with {@code P k = G}) each priced on the device model from one
 * recorded training item of the model at batch B, and the candidate with the most projected events
 * per second among those whose events at risk are within {@link #RISK_SLACK} of the fewest.
 *
 * <p>A candidate's projected round, every device running one micro-batch of B: one item (its inputs
 * and kernels), plus, with {@code k > 1} refined micro-batches, {@code k - 1} more memory updates
 * on the chain's critical path, each after its predecessor's write crossed the link; the all-reduce
 * over G GPUs and the optimizer; a chain's rows to its other devices; and each window's merge
 * (every view receiving the rows of the other chains, over its own link) spread over the window's
 * rounds. On a GPU an item costs nearly the same at every B while launches dominate
 * (docs/measurements/gpu-check.md), so what separates candidates is the refinement chain and the
 * merges.
 */
public final class DeviceRecommendation {
  /** Events at risk within one point of the fewest count as equally good. */
  public static final double RISK_SLACK = 0.01;

  /** Largest accepted balance, as the profile's own rule. */
  private static final double MAX_BALANCE = 1.10;

  private DeviceRecommendation() {}

  /** A candidate priced: its measure, k, events at risk, and projected round and events/s. */
  public record Priced(
      PartitionMeasure measure,
      int microBatches,
      double risk,
      double roundSeconds,
      double eventsPerSecond) {}

  /** The priced candidates (best first) and the chosen one. */
  public record Result(String deviceModel, List<Priced> candidates, Priced chosen, String reason) {}

  /**
   * Prices {@code profile}'s candidates on {@code model} from {@code recorded} (rounds of one item
   * each, the model trained sequentially at batch B); {@code rowBytes} is one node's memory and
   * mailbox row, the unit of a merge.
   */
  public static Result recommend(
      DependencyProfile profile, List<RoundWork> recorded, DeviceModel model, long rowBytes) {
    ProfileSettings s = profile.settings();
    GpuRoundModel gpu = new GpuRoundModel(model, MemoryPlacement.DEVICE, s.devices());
    Item item = Item.of(recorded, gpu, model);
    boolean anyLarge = profile.partitions().stream().anyMatch(m -> m.window() >= s.minimumWindow());
    List<Priced> priced = new ArrayList<>();
    for (PartitionMeasure m : profile.partitions()) {
      boolean windowOk = !anyLarge || m.window() >= s.minimumWindow();
      if (s.devices() % m.chains() != 0 || !windowOk || m.balance() > MAX_BALANCE) {
        continue;
      }
      int k = s.devices() / m.chains();
      double round =
          item.seconds
              + (k - 1) * (item.memoryUpdateSeconds + model.link(item.writeBytes))
              + model.allReduce(item.gradientBytes, s.devices())
              + item.optimizerSeconds
              + (k > 1 ? model.link(k * item.writeBytes) : 0);
      double roundsPerWindow = Math.max(1.0, (double) m.window() / (s.devices() * s.batchSize()));
      double mergedRowsPerWindow =
          m.chains() == 1 ? 0 : (double) m.mergeTies().mergedRows() / Math.max(1, m.windows());
      double merge =
          mergedRowsPerWindow == 0
              ? 0
              : model.link(mergedRowsPerWindow * rowBytes * (m.chains() - 1) / m.chains())
                  / roundsPerWindow;
      double seconds = round + merge;
      priced.add(
          new Priced(
              m,
              k,
              m.batched().of(s.readRule()).lostEventShare(),
              seconds,
              s.devices() * s.batchSize() / seconds));
    }
    if (priced.isEmpty()) {
      throw new IllegalArgumentException("no candidate to price: every measure is unbalanced");
    }
    double fewest = priced.stream().mapToDouble(Priced::risk).min().orElse(0);
    priced.sort(Comparator.comparingDouble(Priced::eventsPerSecond).reversed());
    List<Priced> eligible =
        priced.stream().filter(p -> p.risk() <= fewest + RISK_SLACK).toList(); // fastest first
    Priced chosen = eligible.get(0); // the fewest at risk is always eligible
    String reason = reason(model, chosen, eligible.size(), fewest);
    return new Result(model.name(), List.copyOf(priced), chosen, reason);
  }

  /**
   * Why {@code chosen}: its projection and risk, and that it is the fastest of {@code eligible}
   * candidates within {@link #RISK_SLACK} of the {@code fewest} at risk.
   */
  private static String reason(DeviceModel model, Priced chosen, int eligible, double fewest) {
    return String.format(
        Locale.ROOT,
        "on %s, P=%d x k=%d (%s, windows of %,d) projects %,.0f events/s (%.2f ms a round)"
            + " with %.1f%% of events at risk, the most events/s among the %d candidates"
            + " within %.0f point of the fewest at risk (%.1f%%)",
        model.name(),
        chosen.measure().chains(),
        chosen.microBatches(),
        chosen.measure().partitioner(),
        chosen.measure().window(),
        chosen.eventsPerSecond(),
        1e3 * chosen.roundSeconds(),
        100 * chosen.risk(),
        eligible,
        100 * RISK_SLACK,
        100 * fewest);
  }

  /** One recorded item's costs on the device model, averaged over the recorded rounds. */
  private record Item(
      double seconds,
      double memoryUpdateSeconds,
      double optimizerSeconds,
      double writeBytes,
      double gradientBytes) {
    static Item of(List<RoundWork> rounds, GpuRoundModel gpu, DeviceModel model) {
      double seconds = 0;
      double update = 0;
      double optimizer = 0;
      double write = 0;
      double gradient = 0;
      int n = 0;
      for (RoundWork w : rounds) {
        for (RoundWork.ItemWork i : w.items()) {
          KernelCost mu =
              gpu.cost(i.fetch()).plus(gpu.cost(i.memoryUpdate())).plus(gpu.cost(i.memoryWrite()));
          update += mu.seconds();
          seconds +=
              mu.plus(gpu.cost(i.train())).seconds() + model.hostToDevice(i.inputBytes(), true);
          write += i.writeBytes();
          n++;
        }
        optimizer += gpu.cost(w.optimizer()).seconds() + commits(w, gpu);
        gradient += w.gradientBytes();
      }
      int r = Math.max(1, rounds.size());
      int items = Math.max(1, n);
      return new Item(seconds / items, update / items, optimizer / r, write / items, gradient / r);
    }

    private static double commits(RoundWork w, GpuRoundModel gpu) {
      double s = 0;
      for (RoundWork.ViewCommit c : w.commits()) {
        s += gpu.cost(c.kernels()).seconds();
      }
      return s;
    }
  }
}
