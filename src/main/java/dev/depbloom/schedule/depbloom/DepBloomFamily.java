package dev.depbloom.schedule.depbloom;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.SectionReader;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.profile.Recommendation;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleFamily;
import dev.depbloom.schedule.ScheduleSection;
import java.util.Set;

/**
 * The {@code depbloom} family: its keys ({@link DepBloomSection}), its unset parameters chosen from
 * the dependency profile ({@link #resolve}), and its schedule, in memory groups where it has
 * several ({@link #build}).
 */
public final class DepBloomFamily implements ScheduleFamily<DepBloomConfig> {
  /** Its {@code schedule.name}. */
  public static final String NAME = "depbloom";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<DepBloomConfig> configType() {
    return DepBloomConfig.class;
  }

  @Override
  public Set<String> keys() {
    return DepBloomSection.KEYS;
  }

  @Override
  public DepBloomConfig read(SectionReader r, ScheduleSection.Common common) {
    return DepBloomSection.read(r, common);
  }

  @Override
  public void write(DepBloomConfig config, StringBuilder y) {
    DepBloomSection.write(config, y);
  }

  /** A resolved DepBloom schedule, in memory groups if it has several. */
  @Override
  public Schedule build(DepBloomConfig config, EventStream events, Split split, int batchSize) {
    if (config.needsResolution()) {
      throw new IllegalStateException("depbloom schedule not resolved: " + config);
    }
    int trainEvents = split.trainEnd();
    if (config.memoryParallelism() == 1) {
      return chains(config, config.window(), events, trainEvents, batchSize);
    }
    MemoryGroupsSchedule groups =
        memoryGroups(config, config.window(), events, trainEvents, batchSize);
    int[] shared = groups.sharedStart(1);
    if (shared != null) {
      throw sharedStartError(config, shared, events, trainEvents, batchSize);
    }
    return groups;
  }

  /**
   * The config with every unset parameter (window, partitioner, chains, micro-batches) taken from
   * the dependency profile of the training events under the read rule the schedule implements
   * ({@code own-writes}), with a note saying what was chosen and why.
   */
  @Override
  public Resolution resolve(DepBloomConfig d, EventStream events, Split split, int batchSize) {
    if (!d.needsResolution()) {
      return new Resolution(d, null);
    }
    ProfileSettings settings = ProfileSettings.of(d.devicesPerGroup(), batchSize);
    Recommendation r = DependencyProfile.recommend(events, split, settings);
    int window = r.window() > 0 ? r.window() : split.trainEnd();
    PartitionerKind partitioner =
        r.partitioner() != null ? PartitionerKind.of(r.partitioner()) : PartitionerKind.CONTIGUOUS;
    DepBloomConfig resolved;
    if (d.placement() == DepBloomConfig.Placement.LOCAL) {
      // P = G / M and k as set (1 unset): the profile, which weighs P against k for the spread
      // placement, gives the window and the partitioner, the window at least two of the chains'
      // large batches per chain (what the profile asks of its own choice)
      int chains = d.chains() != 0 ? d.chains() : d.devicesPerGroup();
      int k = Math.max(1, d.microBatches());
      int atLeast = (int) Math.min(split.trainEnd(), 2L * chains * k * batchSize);
      resolved = d.resolvedWith(Math.max(window, atLeast), partitioner, chains, k);
      r = null;
    } else {
      if (d.chains() != 0 || d.microBatches() != 0) {
        r = null; // the user fixed P and k; only window and partitioner come from the profile
      }
      resolved =
          d.resolvedWith(
              window,
              partitioner,
              r != null ? r.chains() : d.chains(),
              r != null ? r.microBatches() : d.microBatches());
    }
    if (d.window() == 0 && d.memoryParallelism() > 1) {
      int w = ownStartsWindow(resolved, resolved.window(), events, split.trainEnd(), batchSize);
      if (w == 0) {
        throw tooFewRounds(resolved, split.trainEnd(), batchSize);
      }
      resolved = resolved.withWindow(w);
    }
    return new Resolution(resolved, note(resolved, r));
  }

  /** What the resolution chose, for the user (the CLI prints it before the run). */
  private static String note(DepBloomConfig s, Recommendation r) {
    return String.format(
        "schedule depbloom on %d devices%s: window %,d, %s partitioner, %d chains x %d"
            + " micro-batches%s (kept in config.yml; set schedule.window, .partitioner, .chains or"
            + " .micro_batches to choose)",
        s.devices(),
        s.memoryParallelism() > 1
            ? " (" + s.memoryParallelism() + " memory groups of " + s.devicesPerGroup() + ")"
            : "",
        s.window(),
        s.partitioner().label(),
        s.chains(),
        s.microBatches(),
        r != null ? ", from the dependency profile: " + r.reason() : "");
  }

  private static DepBloomSchedule chains(
      DepBloomConfig config, int window, EventStream events, int trainEvents, int batchSize) {
    return new DepBloomSchedule(
        events,
        trainEvents,
        batchSize,
        window,
        config.chains(),
        config.microBatches(),
        config.partitioner().create(),
        config.refine(),
        config.criticalPath(),
        config.prefill(),
        config.placement());
  }

  /**
   * {@code config}'s memory groups over its {@code depbloom} schedule with window {@code window}.
   */
  private static MemoryGroupsSchedule memoryGroups(
      DepBloomConfig config, int window, EventStream events, int trainEvents, int batchSize) {
    return new MemoryGroupsSchedule(
        chains(config, window, events, trainEvents, batchSize), config.memoryParallelism());
  }

  /**
   * A window near {@code window} with which each of {@code config}'s memory groups starts at a
   * round of its own: {@link MemoryGroupsSchedule#groupWindow}'s when it gives every group its own
   * start, else the largest window of whole rounds below it that does (rounding a window up to
   * whole rounds can leave a last window too short to count again: 1,200 training events in rounds
   * of 200 and 4 groups made 3 windows of 400), or 0 when none does.
   */
  private static int ownStartsWindow(
      DepBloomConfig config, int window, EventStream events, int trainEvents, int batchSize) {
    int round = roundEvents(config, batchSize);
    int groups = config.memoryParallelism();
    for (int w = MemoryGroupsSchedule.groupWindow(window, trainEvents, groups, round);
        w >= round;
        w -= round) {
      if (memoryGroups(config, w, events, trainEvents, batchSize).sharedStart(1) == null) {
        return w;
      }
    }
    return 0;
  }

  /**
   * The error for a window the user set that gives two memory groups the same start (the profile's
   * is made to fit by {@link #ownStartsWindow}), with a window that gives every group its own
   * start.
   */
  private static InputException sharedStartError(
      DepBloomConfig config, int[] shared, EventStream events, int trainEvents, int batchSize) {
    int window = config.window();
    int groups = config.memoryParallelism();
    int windows = (trainEvents + window - 1) / window;
    int even = ownStartsWindow(config, window, events, trainEvents, batchSize);
    boolean evenWorks = even != 0 && even != window;
    return new InputException(
        "schedule.window: "
            + window
            + " events cut the "
            + trainEvents
            + " training events into "
            + windows
            + (windows == 1 ? " window" : " windows")
            + ", and memory groups start at window starts, so groups "
            + shared[0]
            + " and "
            + shared[1]
            + " of schedule.memory_parallelism "
            + groups
            + " would both start at round "
            + shared[2]
            + " and train the same events from the same memory; "
            + (evenWorks
                ? "set schedule.window to " + even + " (" + groups + " x n windows) or "
                : "set a smaller schedule.window or ")
            + "leave it unset (the dependency profile then chooses one that fits the groups)");
  }

  /**
   * Events a round of {@code config} trains in each memory group: {@code P x k x B}, either
   * placement.
   */
  private static int roundEvents(DepBloomConfig config, int batchSize) {
    return config.chains() * config.microBatches() * batchSize;
  }

  /** The error for memory groups that no window can start apart: too few rounds for them. */
  private static InputException tooFewRounds(
      DepBloomConfig config, int trainEvents, int batchSize) {
    int round = roundEvents(config, batchSize);
    int rounds = (trainEvents + round - 1) / round;
    return new InputException(
        "schedule.memory_parallelism: the "
            + trainEvents
            + " training events make "
            + rounds
            + (rounds == 1 ? " round" : " rounds")
            + " of "
            + round
            + " events (P x k x B = "
            + config.chains()
            + " x "
            + config.microBatches()
            + " x "
            + batchSize
            + "), too few for "
            + config.memoryParallelism()
            + " memory groups to start at rounds of their own; use fewer memory groups or smaller"
            + " batches (train.batch_size)");
  }
}
