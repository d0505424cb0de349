package dev.depbloom.train;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.partition.PartitionerKind;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.profile.Recommendation;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.ScheduleConfig;
import dev.depbloom.schedule.SequentialSchedule;
import dev.depbloom.schedule.depbloom.DepBloomSchedule;
import dev.depbloom.schedule.depbloom.MemoryGroupsSchedule;
import dev.depbloom.schedule.disttgl.DistTglSchedule;

/** Builds the schedule a config names; the one place a schedule's kind is looked at. */
public final class Schedules {
  private Schedules() {}

  /**
   * The run's schedule over its training events, at the batch size of its model config: the one
   * route by which the batch size reaches the rounds (docs/architecture.md). A {@code depbloom}
   * config must be resolved ({@link #resolve}) first.
   */
  public static Schedule of(TrainingRun run) {
    return of(run.schedule(), run.events(), run.split(), run.model().train().batchSize());
  }

  /**
   * The schedule over the training events of {@code split} with batch size {@code batchSize}. A
   * {@code depbloom} config must be resolved ({@link #resolve}) first.
   */
  public static Schedule of(ScheduleConfig config, EventStream events, Split split, int batchSize) {
    int trainEvents = split.trainEnd();
    // Java 17 has no pattern switch (a preview there): the sealed config's three records in turn
    if (config instanceof ScheduleConfig.DistTgl d) {
      return new DistTglSchedule(
          trainEvents,
          batchSize,
          d.minibatchParallelism(),
          d.epochParallelism(),
          d.memoryParallelism());
    }
    if (config instanceof ScheduleConfig.DepBloom d) {
      return depbloom(d, events, trainEvents, batchSize);
    }
    return new SequentialSchedule(trainEvents, batchSize);
  }

  /** A resolved DepBloom schedule, in memory groups if it has several. */
  private static Schedule depbloom(
      ScheduleConfig.DepBloom config, EventStream events, int trainEvents, int batchSize) {
    if (config.needsProfile()) {
      throw new IllegalStateException("depbloom schedule not resolved: " + config);
    }
    if (config.memoryParallelism() == 1) {
      return depbloom(config, config.window(), events, trainEvents, batchSize);
    }
    MemoryGroupsSchedule groups =
        memoryGroups(config, config.window(), events, trainEvents, batchSize);
    int[] shared = groups.sharedStart(1);
    if (shared != null) {
      throw sharedStartError(config, shared, events, trainEvents, batchSize);
    }
    return groups;
  }

  private static DepBloomSchedule depbloom(
      ScheduleConfig.DepBloom config,
      int window,
      EventStream events,
      int trainEvents,
      int batchSize) {
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
      ScheduleConfig.DepBloom config,
      int window,
      EventStream events,
      int trainEvents,
      int batchSize) {
    return new MemoryGroupsSchedule(
        depbloom(config, window, events, trainEvents, batchSize), config.memoryParallelism());
  }

  /**
   * A window near {@code window} with which each of {@code config}'s memory groups starts at a
   * round of its own: {@link MemoryGroupsSchedule#groupWindow}'s when it gives every group its own
   * start, else the largest window of whole rounds below it that does (rounding a window up to
   * whole rounds can leave a last window too short to count again: 1,200 training events in rounds
   * of 200 and 4 groups made 3 windows of 400), or 0 when none does.
   */
  private static int ownStartsWindow(
      ScheduleConfig.DepBloom config,
      int window,
      EventStream events,
      int trainEvents,
      int batchSize) {
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
      ScheduleConfig.DepBloom config,
      int[] shared,
      EventStream events,
      int trainEvents,
      int batchSize) {
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

  /** A resolved config and, when the dependency profile chose parameters, why. */
  public record Resolution(ScheduleConfig config, Recommendation recommendation) {}

  /**
   * A {@code depbloom} config with every unset parameter (window, partitioner, chains,
   * micro-batches) taken from the dependency profile of the training events under the read rule the
   * schedule implements ({@code own-writes}); other configs as they are.
   */
  public static Resolution resolve(
      ScheduleConfig config, EventStream events, Split split, int batchSize) {
    if (!(config instanceof ScheduleConfig.DepBloom d) || !d.needsProfile()) {
      return new Resolution(config, null);
    }
    ProfileSettings settings = ProfileSettings.of(d.devicesPerGroup(), batchSize);
    Recommendation r = DependencyProfile.recommend(events, split, settings);
    int window = r.window() > 0 ? r.window() : split.trainEnd();
    PartitionerKind partitioner =
        r.partitioner() != null ? PartitionerKind.of(r.partitioner()) : PartitionerKind.CONTIGUOUS;
    ScheduleConfig.DepBloom resolved;
    if (d.placement() == ScheduleConfig.DepBloom.Placement.LOCAL) {
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
    return new Resolution(resolved, r);
  }

  /**
   * Events a round of {@code config} trains in each memory group: {@code P x k x B}, either
   * placement.
   */
  private static int roundEvents(ScheduleConfig.DepBloom config, int batchSize) {
    return config.chains() * config.microBatches() * batchSize;
  }

  /** The error for memory groups that no window can start apart: too few rounds for them. */
  private static InputException tooFewRounds(
      ScheduleConfig.DepBloom config, int trainEvents, int batchSize) {
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
