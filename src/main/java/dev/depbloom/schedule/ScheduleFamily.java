package dev.depbloom.schedule;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.SectionReader;
import java.util.Set;

/**
 * A schedule family ({@code sequential}, {@code disttgl}, {@code depbloom}, or one of a user's):
 * its keys of the {@code schedule} section, read, checked and written back; its resolution of unset
 * parameters; and the construction of its rounds. One folder holds a family (docs/architecture.md,
 * "Schedule families"); {@link ScheduleFamilies} finds the families through {@link
 * java.util.ServiceLoader}, so a new one needs its folder and one line in {@code
 * META-INF/services/dev.depbloom.schedule.ScheduleFamily}, nothing else.
 *
 * @param <C> the family's config record
 */
public interface ScheduleFamily<C extends ScheduleConfig> {
  /**
   * The name {@code schedule.name} and {@code --schedule} give it; its configs' {@code label()}.
   */
  String name();

  /** The config record this family reads and builds. */
  Class<C> configType();

  /**
   * The family's own keys of the {@code schedule} section (the common ones are {@link
   * ScheduleSection.Common}'s): a key of another family in this family's section is an error that
   * names the family it belongs to.
   */
  Set<String> keys();

  /**
   * The config a {@code schedule} section of this family describes: the common keys already read,
   * the family's own read from {@code r} (the section checks for unknown keys after).
   *
   * @throws dev.depbloom.model.config.ConfigException naming the key that is wrong
   */
  C read(SectionReader r, ScheduleSection.Common common);

  /** Appends the family's own keys as {@code config.yml} writes them (4 spaces, every key). */
  void write(C config, StringBuilder y);

  /**
   * The config with unset parameters chosen (DepBloom's from the dependency profile of the training
   * events): as it is by default.
   */
  default Resolution resolve(C config, EventStream events, Split split, int batchSize) {
    return new Resolution(config, null);
  }

  /** The schedule of {@code config} over the training events of {@code split} in batches of B. */
  Schedule build(C config, EventStream events, Split split, int batchSize);

  /**
   * A resolved config and, where parameters were chosen, a line for the user saying what and why
   * (null when nothing was chosen).
   */
  record Resolution(ScheduleConfig config, String note) {}
}
