package dev.depbloom.schedule;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The schedule families this build knows, found once through {@link ServiceLoader} (the families of
 * src/main, and any a jar or the test tree on the class path adds); the CLI, the bench and the API
 * reach a family's config, resolution and schedule only through here.
 */
public final class ScheduleFamilies {
  private static final Map<String, ScheduleFamily<?>> FAMILIES = load();

  private ScheduleFamilies() {}

  @SuppressWarnings("rawtypes")
  private static Map<String, ScheduleFamily<?>> load() {
    Map<String, ScheduleFamily<?>> m = new LinkedHashMap<>();
    for (ScheduleFamily f : ServiceLoader.load(ScheduleFamily.class)) {
      ScheduleFamily<?> before = m.putIfAbsent(f.name(), f);
      if (before != null) {
        throw new IllegalStateException(
            "two schedule families named '"
                + f.name()
                + "': "
                + before.getClass().getName()
                + " and "
                + f.getClass().getName());
      }
    }
    return m;
  }

  /** The names of the families, in the order their service files list them. */
  public static List<String> names() {
    return new ArrayList<>(FAMILIES.keySet());
  }

  /** The family named {@code name}, or null if there is none. */
  public static ScheduleFamily<?> named(String name) {
    return FAMILIES.get(name);
  }

  /** The family of {@code config} ({@link ScheduleConfig#label()}). */
  public static ScheduleFamily<?> of(ScheduleConfig config) {
    ScheduleFamily<?> f = FAMILIES.get(config.label());
    if (f == null || !f.configType().isInstance(config)) {
      throw new IllegalStateException("no schedule family for " + config);
    }
    return f;
  }

  /**
   * The schedule of {@code config} over the training events of {@code split} in batches of {@code
   * batchSize}; a config with unset parameters must be resolved ({@link #resolve}) first.
   */
  public static Schedule build(
      ScheduleConfig config, EventStream events, Split split, int batchSize) {
    return build(of(config), config, events, split, batchSize);
  }

  /** {@code config} with its unset parameters chosen by its family. */
  public static ScheduleFamily.Resolution resolve(
      ScheduleConfig config, EventStream events, Split split, int batchSize) {
    return resolve(of(config), config, events, split, batchSize);
  }

  /** Appends {@code config}'s family keys as {@code config.yml} writes them. */
  static void write(ScheduleConfig config, StringBuilder y) {
    write(of(config), config, y);
  }

  private static <C extends ScheduleConfig> Schedule build(
      ScheduleFamily<C> f, ScheduleConfig config, EventStream events, Split split, int batchSize) {
    return f.build(f.configType().cast(config), events, split, batchSize);
  }

  private static <C extends ScheduleConfig> ScheduleFamily.Resolution resolve(
      ScheduleFamily<C> f, ScheduleConfig config, EventStream events, Split split, int batchSize) {
    return f.resolve(f.configType().cast(config), events, split, batchSize);
  }

  private static <C extends ScheduleConfig> void write(
      ScheduleFamily<C> f, ScheduleConfig config, StringBuilder y) {
    f.write(f.configType().cast(config), y);
  }
}
