package dev.depbloom.schedule.depbloom;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.schedule.CommitPolicy;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.LastWinsCommit;
import dev.depbloom.schedule.Refinement;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.WindowMemory;
import dev.depbloom.schedule.WriteExchange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DepBloom over {@code G = P * k} logical devices (Zhao et al., arXiv 2610.15730;
 * docs/schedules.md, "depbloom(W, P, k, B)").
 *
 * <p><b>Temporally bounded spatial partitioning</b> ({@link TemporalWindows}). The training events
 * are cut into serial temporal windows of {@code W} events; a {@link Partitioner} assigns each
 * event of a window to one of {@code P} sub-chains. Chain {@code p} keeps its own memory view: at a
 * window's start every view holds the merged memory; during the window a chain reads and writes
 * only its own view, so it reads its own writes as it makes them and every other row as it was at
 * the window's start (the snapshot); at the window's end the views are merged, per node the latest
 * write of the views that wrote it winning, equal times decided by the writing event's stream index
 * ({@link dev.depbloom.memory.MemoryStore#mergeLatest}). A chain thus also reads its own writes to
 * nodes another chain owns: the dependency profile measures that this read rule ({@code
 * own-writes}) loses far fewer dependencies than reading other chains' nodes strictly from the
 * snapshot, and it needs no extra communication, since the writes stay in the chain's view until
 * the merge either way.
 *
 * <p><b>Large batches and micro-batches.</b> Within a window, chain {@code p} trains its events in
 * large batches of {@code k * B}, each split into {@code k} micro-batches of {@code B} consecutive
 * chain events on devices {@code p*k .. p*k+k-1}; round {@code r} of a window runs every chain's
 * {@code r}-th large batch (chains with fewer leave their devices idle). With refinement ({@link
 * IntraBatchRefinement}) micro-batch {@code j} reads through the writes of micro-batches {@code
 * 0..j-1}; without, all read the view as of the previous round.
 *
 * <p><b>Processes.</b> Micro-batch {@code j} of a chain reads the writes of micro-batches {@code
 * 0..j-1} in the same round, so a chain's devices run in one process: chain {@code p} on rank
 * {@code p mod worldSize} ({@link #rankOf}). During a window only that rank reads and writes the
 * chain's view, so processes exchange memory at the window's end only: each rank's final rows of
 * the views it ran, before the merge ({@link WindowEndExchange}).
 *
 * <p><b>Prefill</b> ({@link #prefills()}, {@code schedule.prefill}; not in the paper, switched off
 * by default). With contiguous chains, chain {@code p} of a window starts where chain {@code p - 1}
 * ends, and what its snapshot lacks is exactly the memory the window's earlier chains write. With
 * prefill, before a window's first round each view {@code p > 0} replays the events of the chains
 * before it (memory writes only, no gradient, the parameters of the moment, batches of {@code B}:
 * TGL's replay before the test), so every chain starts from the memory a sequential walk would hold
 * at its first event, computed with the window-start parameters. Reads then lose no dependency on
 * earlier events; what remains different from {@code sequential} is the parameters the replayed
 * memory was computed with and the optimizer's larger batch. The replay is serial, {@code (P - 1) /
 * P} of the window's events, and costs its own stage, {@code prefill}. At the window's end the
 * replayed rows tie with the owner chain's training writes of the same events in time and stream
 * index, and the merge keeps the training write ({@link dev.depbloom.memory.WriteOrigin}), so
 * replayed rows never outlive their window.
 *
 * <p>With {@code P = 1}, {@code k = 1} and one window this is {@code sequential}. Memory starts
 * over at each epoch, as in TGL; the partition depends only on the stream, so every epoch has the
 * same rounds.
 */
public final class DepBloomSchedule implements Schedule {
  private final int window;
  private final int chains;
  private final int microBatches;
  private final int batchSize;
  private final String partitioner;
  private final boolean refine;
  private final boolean criticalPath;
  private final boolean prefill;
  private final boolean local; // a chain's large batch on one device
  private final List<RoundPlan> rounds;
  private final List<Integer> windowStarts = new ArrayList<>();

  public DepBloomSchedule(
      EventStream events,
      int trainEvents,
      int batchSize,
      int window,
      int chains,
      int microBatches,
      Partitioner partitioner,
      boolean refine,
      boolean criticalPath) {
    this(
        events,
        trainEvents,
        batchSize,
        window,
        chains,
        microBatches,
        partitioner,
        refine,
        criticalPath,
        false);
  }

  /** One micro-batch a device (the spread placement), as before the local placement existed. */
  public DepBloomSchedule(
      EventStream events,
      int trainEvents,
      int batchSize,
      int window,
      int chains,
      int microBatches,
      Partitioner partitioner,
      boolean refine,
      boolean criticalPath,
      boolean prefill) {
    this(
        events,
        trainEvents,
        batchSize,
        window,
        chains,
        microBatches,
        partitioner,
        refine,
        criticalPath,
        prefill,
        DepBloomConfig.Placement.SPREAD);
  }

  /**
   * @param prefill replay the window's earlier chains into each chain's view at the window's start
   *     (contiguous partitions only)
   * @param placement where a chain's large batch trains: on one device, or one micro-batch a device
   * @throws IllegalArgumentException with prefill over a partition whose chains are not consecutive
   *     slices of the window
   */
  public DepBloomSchedule(
      EventStream events,
      int trainEvents,
      int batchSize,
      int window,
      int chains,
      int microBatches,
      Partitioner partitioner,
      boolean refine,
      boolean criticalPath,
      boolean prefill,
      DepBloomConfig.Placement placement) {
    if (window < 1 || chains < 1 || microBatches < 1 || batchSize < 1) {
      throw new IllegalArgumentException(
          "depbloom needs W, P, k, B >= 1: " + window + ", " + chains + ", " + microBatches);
    }
    this.window = window;
    this.chains = chains;
    this.microBatches = microBatches;
    this.batchSize = batchSize;
    this.partitioner = partitioner.name();
    this.refine = refine;
    this.criticalPath = criticalPath;
    this.prefill = prefill && chains > 1;
    this.local = placement == DepBloomConfig.Placement.LOCAL;
    this.rounds = List.copyOf(plan(events, trainEvents, partitioner));
  }

  private List<RoundPlan> plan(EventStream events, int trainEvents, Partitioner partitioner) {
    List<RoundPlan> out = new ArrayList<>();
    List<Integer> allViews = new ArrayList<>();
    for (int p = 0; p < chains; p++) {
      allViews.add(p);
    }
    for (TemporalWindows.Window w :
        TemporalWindows.of(events, trainEvents, window, chains, partitioner)) {
      int[][] chainEvents = w.chainEvents();
      int large = microBatches * batchSize;
      int windowRounds = 0;
      for (int[] c : chainEvents) {
        windowRounds = Math.max(windowRounds, (c.length + large - 1) / large);
      }
      windowStarts.add(out.size());
      for (int r = 0; r < windowRounds; r++) {
        boolean windowEnd = r == windowRounds - 1 && chains > 1;
        List<RoundPlan.Prefill> prefills = r == 0 && prefill ? w.prefill() : List.of();
        out.add(
            new RoundPlan(
                out.size(),
                items(chainEvents, r),
                out.isEmpty() ? allViews : List.of(),
                windowEnd ? List.of(allViews) : List.of(),
                prefills));
      }
    }
    return out;
  }

  /**
   * Round {@code r} of a window: every chain's {@code r}-th large batch, on the chain's device
   * (local) or one micro-batch a device (spread).
   */
  private List<ItemPlan> items(int[][] chainEvents, int r) {
    int large = microBatches * batchSize;
    List<ItemPlan> items = new ArrayList<>();
    for (int p = 0; p < chains; p++) {
      int[] c = chainEvents[p];
      if (local) {
        int lo = r * large;
        if (lo < c.length) {
          int[] events = Arrays.copyOfRange(c, lo, Math.min(c.length, lo + large));
          items.add(new ItemPlan(p, p, events, batchSize));
        }
        continue;
      }
      for (int j = 0; j < microBatches; j++) {
        int lo = r * large + j * batchSize;
        int hi = Math.min(c.length, lo + batchSize);
        if (lo < hi) {
          items.add(new ItemPlan(p * microBatches + j, p, Arrays.copyOfRange(c, lo, hi)));
        }
      }
    }
    return items;
  }

  @Override
  public int devices() {
    return local ? chains : chains * microBatches;
  }

  @Override
  public int memoryViews() {
    return chains;
  }

  @Override
  public List<RoundPlan> plan(int epoch) {
    return rounds;
  }

  /** The first round of every temporal window: where the views hold merged memory. */
  @Override
  public List<Integer> walkStarts(int epoch) {
    return List.copyOf(windowStarts);
  }

  /** Intra-batch memory refinement when switched on and there is more than one micro-batch. */
  @Override
  public Refinement refinement() {
    return refines() ? new IntraBatchRefinement() : Refinement.NONE;
  }

  private boolean refines() {
    return refine && microBatches > 1;
  }

  /**
   * The critical path's commit when switched on, else everything at the round's end; refined
   * micro-batches' writes are applied in order, others merged last-wins.
   */
  @Override
  public CommitPolicy commitPolicy() {
    return criticalPath ? new CriticalPathCommit(refines()) : new LastWinsCommit(refines());
  }

  /** Whether each window starts with a prefill of its chains' views (see the class comment). */
  public boolean prefills() {
    return prefill;
  }

  /**
   * Device {@code p} (local), or {@code p * k + j} (spread), belongs to chain {@code p}, which runs
   * on rank {@code p mod W}.
   */
  @Override
  public int rankOf(int device, int worldSize) {
    return (local ? device : device / microBatches) % worldSize;
  }

  /** The window-start prefill and the window-end merge. */
  @Override
  public WindowMemory windowMemory() {
    return new WindowEdges();
  }

  /** A chain's view stays on its rank during a window: rows cross at the window's end. */
  @Override
  public WriteExchange writeExchange() {
    return new WindowEndExchange();
  }

  /** Every rank runs whole sub-chains, as many as every other: {@code P} a multiple of W. */
  @Override
  public void checkWorldSize(int worldSize) {
    if (chains % worldSize != 0) {
      throw new InputException(
          "WORLD_SIZE="
              + worldSize
              + ": "
              + describe()
              + " runs each of its "
              + chains
              + " sub-chain(s) in one process, so the process count must divide the chain count"
              + " P (schedule.chains)");
    }
  }

  @Override
  public String describe() {
    return "depbloom(W="
        + window
        + ", P="
        + chains
        + " "
        + partitioner
        + ", k="
        + microBatches
        + (microBatches > 1 ? (local ? " local" : " spread") : "")
        + ", B="
        + batchSize
        + (refines() ? ", refine" : "")
        + (criticalPath ? ", critical path" : "")
        + (prefill ? ", prefill" : "")
        + ")";
  }
}
