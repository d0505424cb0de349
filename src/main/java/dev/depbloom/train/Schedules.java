package dev.depbloom.train;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.InputException;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.ScheduleConfig;
import dev.depbloom.partition.ContiguousPartitioner;
import dev.depbloom.partition.Partitioner;
import dev.depbloom.partition.TopologyPartitioner;
import dev.depbloom.profile.DependencyProfile;
import dev.depbloom.profile.ProfileSettings;
import dev.depbloom.profile.Recommendation;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.schedule.SequentialSchedule;
import dev.depbloom.schedule.depbloom.DepBloomSchedule;
import dev.depbloom.schedule.depbloom.MemoryGroupsSchedule;
import dev.depbloom.schedule.disttgl.DistTglSchedule;

/** Builds the schedule a config names; the one place a schedule's kind is looked at. */
public final class Schedules {
  private Schedules() {}

  /**
   * The schedule over the training events of {@code split} with batch size {@code batchSize}. A
   * {@code depbloom} config must be resolved ({@link #resolve}) first.
   */
  public static Schedule of(ScheduleConfig config, EventStream events, Split split, int batchSize) {
    int trainEvents = split.trainEnd();
    return switch (config.kind()) {
      case SEQUENTIAL -> new SequentialSchedule(trainEvents, batchSize);
      case DISTTGL ->
          new DistTglSchedule(
              trainEvents, batchSize, config.minibatchParallelism(), config.memoryParallelism());
      case DEPBLOOM -> {
        if (config.needsProfile()) {
          throw new IllegalStateException("depbloom schedule not resolved: " + config);
        }
        if (config.memoryParallelism() == 1) {
          yield depbloom(config, config.window(), events, trainEvents, batchSize);
        }
        MemoryGroupsSchedule groups =
            memoryGroups(config, config.window(), events, trainEvents, batchSize);
        int[] shared = groups.sharedStart(1);
        if (shared != null) {
          throw sharedStartError(config, shared, events, trainEvents, batchSize);
        }
        yield groups;
      }
    };
  }

  private static DepBloomSchedule depbloom(
      ScheduleConfig config, int window, EventStream events, int trainEvents, int batchSize) {
    return new DepBloomSchedule(
        events,
        trainEvents,
        batchSize,
        window,
        config.chains(),
        config.microBatches(),
        partitioner(config.partitioner()),
        config.refine(),
        config.criticalPath(),
        config.prefill());
  }

  /**
   * {@code config}'s memory groups over its {@code depbloom} schedule with window {@code window}.
   */
  private static MemoryGroupsSchedule memoryGroups(
      ScheduleConfig config, int window, EventStream events, int trainEvents, int batchSize) {
    return new MemoryGroupsSchedule(
        depbloom(config, window, events, trainEvents, batchSize), config.memoryParallelism());
  }

  /**
   * The error for a window (the user's: the profile's is made even by {@link
   * MemoryGroupsSchedule#groupWindow}) that gives two memory groups the same start, with the window
   * {@link MemoryGroupsSchedule#groupWindow} would use when it gives every group its own start.
   */
  private static InputException sharedStartError(
      ScheduleConfig config, int[] shared, EventStream events, int trainEvents, int batchSize) {
    int window = config.window();
    int groups = config.memoryParallelism();
    int windows = (trainEvents + window - 1) / window;
    int even =
        MemoryGroupsSchedule.groupWindow(
            window, trainEvents, groups, config.chains() * config.microBatches() * batchSize);
    boolean evenWorks =
        even != window
            && memoryGroups(config, even, events, trainEvents, batchSize).sharedStart(1) == null;
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

  /** The partitioner of a name in {@link ScheduleConfig#PARTITIONERS}. */
  public static Partitioner partitioner(String name) {
    return switch (name) {
      case "contiguous" -> new ContiguousPartitioner();
      case "topology" -> new TopologyPartitioner();
      default -> throw new IllegalArgumentException("unknown partitioner " + name);
    };
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
    if (!config.needsProfile()) {
      return new Resolution(config, null);
    }
    ProfileSettings settings = ProfileSettings.of(config.devicesPerGroup(), batchSize);
    Recommendation r = DependencyProfile.recommend(events, split, settings);
    int window = r.window() > 0 ? r.window() : split.trainEnd();
    String partitioner = r.partitioner() != null ? r.partitioner() : "contiguous";
    if (config.chains() != 0 || config.microBatches() != 0) {
      r = null; // the user fixed P and k; only window and partitioner come from the profile
    }
    ScheduleConfig resolved =
        config.resolvedWith(
            window,
            partitioner,
            r != null ? r.chains() : config.chains(),
            r != null ? r.microBatches() : config.microBatches());
    if (config.window() == 0 && config.memoryParallelism() > 1) {
      resolved =
          resolved.resolvedWithWindow(
              MemoryGroupsSchedule.groupWindow(
                  resolved.window(),
                  split.trainEnd(),
                  config.memoryParallelism(),
                  resolved.chains() * resolved.microBatches() * batchSize));
    }
    return new Resolution(resolved, r);
  }
}
