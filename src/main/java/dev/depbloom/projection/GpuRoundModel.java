package dev.depbloom.projection;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.tensor.KernelLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prices a recorded round ({@link RoundWork}) on a {@link DeviceModel} under a memory placement
 * (docs/projection.md, "The round model"). Every logical device is one GPU; all {@code G} GPUs sit
 * in one machine. A kernel costs {@link KernelCost#of}; stages overlap only where the schedule
 * overlaps them:
 *
 * <ol>
 *   <li><b>Prefill</b> (DepBloom, a window's first round): the slowest memory group's replay, its
 *       kernels one after another, each handoff of rows to the next view over the link.
 *   <li><b>Items</b>, in parallel on their GPUs. With {@link MemoryPlacement#DEVICE} an item runs
 *       its fetch, memory update, write and training kernels (a large batch on one GPU, DepBloom's
 *       local placement: its {@code k} overlays, fetches, memory updates and writes in series, then
 *       one training pass over {@code k * B}, as recorded); a spread refined micro-batch starts
 *       when the previous micro-batch of its chain has published its write and the write has
 *       crossed the link to its GPU (the serial chain refinement costs). With {@link
 *       MemoryPlacement#HOST_DAEMON} (DistTGL) as its code runs ({@link DaemonRules#DISTTGL}): a
 *       trainer copies in its mini-batch (edge features once per sampled edge) and the rows its
 *       daemon gathered, all through pageable memory, runs its fetch, memory update and write,
 *       copies the write into its shared write buffer, then trains; its group's daemon applies the
 *       writes rank after rank as they arrive and gathers the next round's reads, rank after rank,
 *       while the trainers train, all-reduce and step (in an epoch's first round the trainers wait
 *       for that gather).
 *   <li><b>All-reduce</b> of the gradients over the {@code G} GPUs, then the optimizer step.
 *   <li><b>Commit</b>. On the device: every view applies its rows on the critical path (hot rows
 *       only with the critical path) with its kernels, in parallel with the other views; a chain of
 *       {@code k > 1} micro-batch GPUs keeps its view on each, so the round's rows also cross the
 *       link once to them. In host memory: the daemons' applies, overlapping the training pass and
 *       the step (above).
 *   <li><b>Merge</b> (DepBloom, a window's end): every view receives the rows it did not win over
 *       its own link, in parallel, and copies them in.
 *   <li><b>Sampling</b> runs on the host ahead of the GPUs (DistTGL's loader thread in each
 *       trainer, this project's planning ahead): only the part of the round's slowest sampling that
 *       exceeds the previous round's time is charged.
 * </ol>
 *
 * An item's other inputs, built on the host with its sampling (index tensors, time deltas, the
 * features it reads), are copied in before its kernels: through pinned memory with memory on the
 * devices, as {@link DaemonRules} say in host memory (in parallel with a trainer's wait for its
 * daemon). Not modelled, for either placement: a chain's rows the next round reads from the cold
 * commit are taken to land in time; the CPU work of the coordinator (planning, merging the round's
 * writes) beyond sampling. A DistTGL trainer is charged the distinct rows of its batch times {@link
 * DaemonRules#readFactor()} (1 by default: DistTGL deduplicates its positive and negative graphs'
 * nodes apart, amazon-science/disttgl utils.py {@code to_dgl_blocks}, {@code combine_mfgs}, and so
 * gathers somewhat more, 1.22x on Wikipedia with TGN's 10 neighbours, 1.57x on email-Eu, {@code
 * bench/disttgl-read-rows.py}).
 */
public final class GpuRoundModel {
  private final DeviceModel model;
  private final MemoryPlacement placement;
  private final int devices;
  private final DaemonRules rules;

  /**
   * A model pricing host-placed memory as DistTGL's code runs ({@link DaemonRules#DISTTGL}).
   *
   * @param devices logical devices G (GPUs of the all-reduce)
   */
  public GpuRoundModel(DeviceModel model, MemoryPlacement placement, int devices) {
    this(model, placement, devices, DaemonRules.DISTTGL);
  }

  /**
   * @param devices logical devices G (GPUs of the all-reduce)
   * @param rules how host-placed memory is priced (unused with memory on the devices)
   */
  public GpuRoundModel(
      DeviceModel model, MemoryPlacement placement, int devices, DaemonRules rules) {
    this.model = model;
    this.placement = placement;
    this.devices = devices;
    this.rules = rules;
  }

  public DeviceModel model() {
    return model;
  }

  /** The kernels of {@code log} on this model. */
  public KernelCost cost(KernelLog log) {
    KernelCost c = KernelCost.NONE;
    for (int i = 0; i < log.size(); i++) {
      c = c.plus(KernelCost.of(model, log.flops(i), log.bytes(i)));
    }
    return c;
  }

  /**
   * The round's time, the previous round having taken {@code previousSeconds} (what sampling ahead
   * hides behind; 0 for an epoch's first round).
   */
  public RoundTime round(RoundWork w, double previousSeconds) {
    RoundTime step = RoundTime.allReduce(model.allReduce(w.gradientBytes(), devices));
    step = step.plus(RoundTime.of(cost(w.optimizer())));
    RoundTime devicesTime;
    if (placement == MemoryPlacement.DEVICE) {
      devicesTime =
          prefill(w).plus(itemsOnDevice(w)).plus(step.plus(commitOnDevice(w)).plus(merge(w)));
    } else if (rules.overlapped()) {
      devicesTime = daemonRoundOverlapped(w, step, previousSeconds == 0);
    } else {
      devicesTime = itemsWithDaemonInSeries(w).plus(RoundTime.longer(step, daemonApply(w)));
    }
    long slowestSample = 0;
    for (RoundWork.ItemWork i : w.items()) {
      slowestSample = Math.max(slowestSample, i.sampleNanos());
    }
    double exposed = Math.max(0, slowestSample / 1e9 - previousSeconds);
    return devicesTime.plus(RoundTime.sample(exposed));
  }

  /** The slowest memory group's prefill: its replay, then its handoffs over the link. */
  private RoundTime prefill(RoundWork w) {
    RoundTime slowest = RoundTime.ZERO;
    for (RoundWork.GroupPrefill p : w.prefills()) {
      RoundTime t = RoundTime.of(cost(p.kernels()));
      if (p.handoffs() > 0) {
        t =
            t.plus(
                RoundTime.link(
                    p.handoffs() * model.linkSeconds() + p.handoffBytes() / model.linkBytes()));
      }
      slowest = RoundTime.longer(slowest, t);
    }
    return slowest;
  }

  /** The slowest GPU's items with memory on the devices, refined chains chained on their writes. */
  private RoundTime itemsOnDevice(RoundWork w) {
    RoundTime slowest = RoundTime.ZERO;
    Map<Integer, TreeMap<Integer, RoundWork.ItemWork>> chains = new TreeMap<>();
    for (RoundWork.ItemWork i : w.items()) {
      if (i.microBatch() >= 0) {
        chains.computeIfAbsent(i.view(), v -> new TreeMap<>()).put(i.microBatch(), i);
      } else {
        // a large batch on one GPU (local placement): its k memory updates and overlays in
        // series, then one training pass, all recorded in its logs
        RoundTime t =
            inputs(i)
                .plus(
                    RoundTime.of(
                        cost(i.refine())
                            .plus(cost(i.fetch()))
                            .plus(cost(i.memoryUpdate()))
                            .plus(cost(i.memoryWrite()))
                            .plus(cost(i.train()))));
        slowest = RoundTime.longer(slowest, t);
      }
    }
    for (TreeMap<Integer, RoundWork.ItemWork> chain : chains.values()) {
      RoundTime published = RoundTime.ZERO;
      RoundWork.ItemWork previous = null;
      for (RoundWork.ItemWork i : chain.values()) {
        RoundTime start =
            previous == null
                ? inputs(i)
                : RoundTime.longer(
                    inputs(i), published.plus(RoundTime.link(model.link(previous.writeBytes()))));
        published =
            start.plus(
                RoundTime.of(
                    cost(i.refine())
                        .plus(cost(i.fetch()))
                        .plus(cost(i.memoryUpdate()))
                        .plus(cost(i.memoryWrite()))));
        slowest = RoundTime.longer(slowest, published.plus(RoundTime.of(cost(i.train()))));
        previous = i;
      }
    }
    return slowest;
  }

  /**
   * The slowest trainer with memory in host memory under {@link DaemonRules#overlapped()} off: each
   * group's daemon gathers its trainers' reads in device order; a trainer waits for its own gather,
   * copies it in, computes, copies its write out.
   */
  private RoundTime itemsWithDaemonInSeries(RoundWork w) {
    RoundTime slowest = RoundTime.ZERO;
    for (List<RoundWork.ItemWork> trainers : byView(w).values()) {
      double gathered = 0;
      for (RoundWork.ItemWork i : trainers) {
        gathered += model.hostGather(reads(i));
        RoundTime t =
            RoundTime.longer(RoundTime.daemon(gathered), inputs(i))
                .plus(RoundTime.hostTraffic(model.hostToDevice(reads(i), false)))
                .plus(
                    RoundTime.of(
                        cost(i.fetch())
                            .plus(cost(i.memoryUpdate()))
                            .plus(cost(i.memoryWrite()))
                            .plus(cost(i.train()))))
                .plus(RoundTime.hostTraffic(writeBack(i)));
        slowest = RoundTime.longer(slowest, t);
      }
    }
    return slowest;
  }

  /**
   * A round with memory in host memory in DistTGL's order: a trainer copies in its inputs and the
   * rows its daemon gathered during the previous round (in an epoch's first round, when {@code
   * first}, it waits for that gather, rank after rank), runs its fetch, memory update and write,
   * copies its write out, then trains; the gradients are all-reduced and stepped. Meanwhile each
   * daemon applies its group's writes in rank order as they arrive and then gathers the next
   * round's reads (taken to be this round's sizes: rounds repeat their shapes), rank after rank.
   * The round ends when both are done.
   */
  private RoundTime daemonRoundOverlapped(RoundWork w, RoundTime step, boolean first) {
    RoundTime trainersEnd = RoundTime.ZERO;
    RoundTime daemonsEnd = RoundTime.ZERO;
    for (List<RoundWork.ItemWork> trainers : byView(w).values()) {
      double gathered = 0; // rank after rank: this round's reads, the next round's alike
      RoundTime applied = RoundTime.ZERO;
      for (RoundWork.ItemWork i : trainers) {
        gathered += model.hostGather(reads(i));
        RoundTime ready = first ? RoundTime.daemon(gathered) : RoundTime.ZERO;
        RoundTime written =
            RoundTime.longer(ready, inputs(i))
                .plus(RoundTime.hostTraffic(model.hostToDevice(reads(i), false)))
                .plus(
                    RoundTime.of(
                        cost(i.fetch()).plus(cost(i.memoryUpdate())).plus(cost(i.memoryWrite()))))
                .plus(RoundTime.hostTraffic(writeBack(i)));
        trainersEnd = RoundTime.longer(trainersEnd, written.plus(RoundTime.of(cost(i.train()))));
        applied =
            RoundTime.longer(applied, written)
                .plus(RoundTime.daemon(model.hostGather(i.writeBytes())));
      }
      daemonsEnd = RoundTime.longer(daemonsEnd, applied.plus(RoundTime.daemon(gathered)));
    }
    return RoundTime.longer(trainersEnd.plus(step), daemonsEnd);
  }

  private static Map<Integer, List<RoundWork.ItemWork>> byView(RoundWork w) {
    Map<Integer, List<RoundWork.ItemWork>> groups = new TreeMap<>();
    for (RoundWork.ItemWork i : w.items()) {
      groups.computeIfAbsent(i.view(), v -> new ArrayList<>()).add(i);
    }
    return groups;
  }

  /** Memory and mailbox bytes a host-placed trainer reads, by the rules' read factor. */
  private double reads(RoundWork.ItemWork i) {
    return i.memoryReadBytes() * rules.readFactor();
  }

  /** A host-placed trainer's write copied out, into touched or fresh pageable memory. */
  private double writeBack(RoundWork.ItemWork i) {
    return rules.touchedWrites()
        ? model.deviceToTouchedHost(i.writeBytes())
        : model.deviceToHost(i.writeBytes(), false);
  }

  /**
   * An item's inputs built on the host (index tensors, time deltas, features) copied in: through
   * pinned memory with memory on the devices; with memory in host memory as the daemon rules say
   * (DistTGL: pageable, edge features once per sampled edge).
   */
  private RoundTime inputs(RoundWork.ItemWork i) {
    if (placement == MemoryPlacement.DEVICE) {
      return RoundTime.hostTraffic(model.hostToDevice(i.inputBytes(), true));
    }
    long bytes =
        i.inputBytes() + (rules.perSampledEdgeFeatures() ? i.repeatedEdgeFeatureBytes() : 0);
    return RoundTime.hostTraffic(model.hostToDevice(bytes, !rules.pageableInputs()));
  }

  /** The slowest daemon's applies of its group's writes, trainer after trainer. */
  private RoundTime daemonApply(RoundWork w) {
    Map<Integer, Double> perGroup = new TreeMap<>();
    for (RoundWork.ItemWork i : w.items()) {
      perGroup.merge(i.view(), model.hostGather(i.writeBytes()), Double::sum);
    }
    double slowest = perGroup.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    return RoundTime.daemon(slowest);
  }

  /**
   * The slowest view's commit on its devices: its kernels, and for a chain of several micro-batch
   * GPUs the round's rows crossing the link to each of them.
   */
  private RoundTime commitOnDevice(RoundWork w) {
    Map<Integer, Integer> gpusPerView = new TreeMap<>();
    for (RoundWork.ItemWork i : w.items()) {
      gpusPerView.merge(i.view(), 1, Integer::sum);
    }
    RoundTime slowest = RoundTime.ZERO;
    for (RoundWork.ViewCommit c : w.commits()) {
      RoundTime t = RoundTime.of(cost(c.kernels()));
      if (gpusPerView.getOrDefault(c.view(), 1) > 1) {
        t = t.plus(RoundTime.link(model.link(c.criticalBytes())));
      }
      slowest = RoundTime.longer(slowest, t);
    }
    return slowest;
  }

  /**
   * The slowest view's share of the window-end merges: its received rows over its link, then their
   * copies into it, two kernels per other view of its group (memory rows and mailboxes), each
   * reading and writing its share of the received bytes.
   */
  private RoundTime merge(RoundWork w) {
    RoundTime slowest = RoundTime.ZERO;
    for (RoundWork.GroupMerge m : w.merges()) {
      int copies = 2 * (m.views().size() - 1);
      for (int v = 0; v < m.views().size(); v++) {
        double perCopy = 2.0 * m.receivedBytes()[v] / copies;
        RoundTime t =
            RoundTime.link(model.link(m.receivedBytes()[v]))
                .plus(RoundTime.of(KernelCost.of(model, 0, perCopy).times(copies)));
        slowest = RoundTime.longer(slowest, t);
      }
    }
    return slowest;
  }
}
