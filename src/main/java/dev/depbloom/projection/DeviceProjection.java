package dev.depbloom.projection;

import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundCosts;
import dev.depbloom.observe.RoundObserver;
import dev.depbloom.observe.RoundWork;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Projects the measured rounds of a schedule onto {@code G} real devices (docs/schedules.md,
 * "Comparing schedules"). Every logical device is taken to cost what its work item cost on one
 * worker here (all of its stages, its shards added up) and to run in parallel with the others,
 * sampling included. A refined micro-batch starts its refinement only when the previous micro-batch
 * of its chain has published its memory write (the short chain inside a DepBloom round); everything
 * else of an item is independent. Memory traffic follows the schedule's {@link MemoryPlacement},
 * each device over its own link: with memory in host memory (DistTGL) a device's item reads its
 * memory and mailbox rows over its link before computing and sends its write back after ({@code
 * latency + bytes / bandwidth} each); with memory on the devices (sequential, DepBloom) nothing
 * crosses per round but what the rows below say. A round then costs the slowest device, plus:
 *
 * <ul>
 *   <li>the gradient all-reduce, modelled as a ring: {@code 2 (G - 1) latency + 2 (G - 1) / G *
 *       gradientBytes / bandwidth} (0 on one device);
 *   <li>on the devices, a chain of several micro-batch devices keeps its view on each of them: the
 *       rows committed on the critical path cross the link once, the slowest view's counting (each
 *       view on its own link; with hot/cold commits the cold rows cross while the next round
 *       computes);
 *   <li>the optimizer step, as measured;
 *   <li>the critical-path commit and the window-end merge of the memory view that took longest, as
 *       measured: every view lives on its own device and commits and merges there, in parallel with
 *       the others (here one coordinator thread did them one view after another);
 *   <li>the rows the merge copied into the view that received most, crossing the link: {@code
 *       latency + mergeBytes / bandwidth};
 *   <li>a window's prefill ({@code schedule.prefill}) before the round's items: the memory group
 *       whose prefill took longest, as measured (groups prefill in parallel, each a serial chain
 *       over its views), with each of its handoffs from one view to the next crossing the link:
 *       {@code handoffs * latency + bytes / bandwidth}.
 * </ul>
 *
 * Nothing is fitted: the costs are this run's, the link is the stated {@link Link}. Not charged:
 * DistTGL's daemon (its gathers are this process's memory reads, in the measured fetch), sampling
 * ahead of the devices (each device's measured sampling is on its path). {@link #measuredLink()}
 * gives the projection of what this process does, for checking against a run with one worker per
 * device: the all-reduce as measured (the in-process sum), no transfer, and the prefills, commits
 * and merges of all views one after another, as this process's coordinator runs them.
 */
public final class DeviceProjection implements RoundObserver {
  /** A device interconnect: per-message latency and bandwidth. */
  public record Link(double latencySeconds, double bytesPerSecond) {
    /** PCIe 4.0 x16-class: 10 microseconds, 16 GB/s (docs/schedules.md; stated, not fitted). */
    public static final Link PCIE4 = new Link(10e-6, 16e9);
  }

  private final int devices;
  private final long gradientBytes;
  private final Link link;
  private final MemoryPlacement placement;
  private final List<Double> roundSeconds = new ArrayList<>();
  private final List<Double> measuredLinkRoundSeconds = new ArrayList<>();
  private double seconds;
  private double measuredLinkSeconds;

  /**
   * @param devices logical devices G
   * @param gradientBytes bytes of one gradient (4 per parameter)
   * @param placement where the schedule keeps memory on real devices
   */
  public DeviceProjection(int devices, long gradientBytes, Link link, MemoryPlacement placement) {
    this.devices = devices;
    this.gradientBytes = gradientBytes;
    this.link = link;
    this.placement = placement;
  }

  @Override
  public void roundFinished(RoundCosts c) {
    double compute = compute(c, placement == MemoryPlacement.HOST_DAEMON ? hostTraffic(c) : null);
    double perView = (c.slowestViewCommitNanos() + c.slowestViewMergeNanos()) / 1e9;
    double mergeLink =
        c.mergeBytes() == 0 ? 0 : link.latencySeconds() + c.mergeBytes() / link.bytesPerSecond();
    RoundCosts.Prefill f = c.prefill();
    double prefill =
        f.slowestNanos() / 1e9
            + f.slowestHandoffs() * link.latencySeconds()
            + f.slowestBytes() / link.bytesPerSecond();
    double modelled =
        compute
            + prefill
            + allReduce()
            + (placement == MemoryPlacement.DEVICE ? replicaCommit(c) : 0)
            + c.optimizerNanos() / 1e9
            + perView
            + mergeLink;
    double measured =
        compute
            + (f.totalNanos()
                    + c.allReduceNanos()
                    + c.optimizerNanos()
                    + c.commitNanos()
                    + c.mergeNanos())
                / 1e9;
    roundSeconds.add(modelled);
    measuredLinkRoundSeconds.add(measured);
    seconds += modelled;
    measuredLinkSeconds += measured;
  }

  /** Per device, its items' memory reads and writes over its own link (memory in host memory). */
  private Map<Integer, Double> hostTraffic(RoundCosts c) {
    Map<Integer, Double> out = new TreeMap<>();
    for (RoundWork.ItemWork i : c.work().items()) {
      out.merge(i.device(), transfer(i.memoryReadBytes()) + transfer(i.writeBytes()), Double::sum);
    }
    return out;
  }

  /**
   * The slowest view's critical rows to the other devices of its chain (a view on several
   * micro-batch devices); 0 where a view has one device.
   */
  private double replicaCommit(RoundCosts c) {
    Map<Integer, Integer> devicesOfView = new TreeMap<>();
    for (RoundWork.ItemWork i : c.work().items()) {
      devicesOfView.merge(i.view(), 1, Integer::sum);
    }
    double slowest = 0;
    for (RoundWork.ViewCommit v : c.work().commits()) {
      if (devicesOfView.getOrDefault(v.view(), 1) > 1) {
        slowest = Math.max(slowest, transfer(v.criticalBytes()));
      }
    }
    return slowest;
  }

  private double transfer(long bytes) {
    return bytes == 0 ? 0 : link.latencySeconds() + bytes / link.bytesPerSecond();
  }

  /** The ring all-reduce of one gradient over G devices. */
  double allReduce() {
    if (devices == 1) {
      return 0;
    }
    double g = devices;
    return 2 * (g - 1) * link.latencySeconds()
        + 2 * (g - 1) / g * gradientBytes / link.bytesPerSecond();
  }

  /** The slowest device of a round, with refined micro-batches chained on their writes. */
  static double compute(RoundCosts c) {
    return compute(c, null);
  }

  /**
   * As {@link #compute(RoundCosts)}, each device's {@code transfers} (seconds, or null for none)
   * added to its path.
   */
  static double compute(RoundCosts c, Map<Integer, Double> transfers) {
    Map<Integer, long[]> perDevice = new TreeMap<>(); // device -> summed stages
    Map<Integer, int[]> where = new TreeMap<>(); // device -> {chain, microBatch}
    for (RoundCosts.TaskCost t : c.tasks()) {
      long[] s = perDevice.computeIfAbsent(t.device(), d -> new long[6]);
      s[0] += t.sampleNanos();
      s[1] += t.refineNanos();
      s[2] += t.fetchNanos() + t.memoryUpdateNanos() + t.memoryWriteNanos();
      s[3] += t.trainNanos();
      where.putIfAbsent(t.device(), new int[] {t.chain(), t.microBatch()});
    }
    Map<Integer, TreeMap<Integer, Integer>> chains = new TreeMap<>(); // chain -> j -> device
    double slowest = 0;
    for (var e : perDevice.entrySet()) {
      int[] w = where.get(e.getKey());
      if (w[1] >= 0) {
        chains.computeIfAbsent(w[0], x -> new TreeMap<>()).put(w[1], e.getKey());
      } else {
        long[] s = e.getValue();
        double moved = transfers == null ? 0 : transfers.getOrDefault(e.getKey(), 0.0);
        slowest = Math.max(slowest, (s[0] + s[1] + s[2] + s[3]) / 1e9 + moved);
      }
    }
    for (TreeMap<Integer, Integer> chain : chains.values()) {
      double published = 0;
      for (int device : chain.values()) {
        long[] s = perDevice.get(device);
        double moved = transfers == null ? 0 : transfers.getOrDefault(device, 0.0);
        double ready = Math.max(s[0] / 1e9, published);
        published = ready + (s[1] + s[2]) / 1e9;
        slowest = Math.max(slowest, published + s[3] / 1e9 + moved);
      }
    }
    return slowest;
  }

  /** Projected seconds of every round so far (link model). */
  public double seconds() {
    return seconds;
  }

  /** The same rounds with the all-reduce as measured here and no link transfer. */
  public double measuredLink() {
    return measuredLinkSeconds;
  }

  public Link link() {
    return link;
  }

  public int rounds() {
    return roundSeconds.size();
  }
}
