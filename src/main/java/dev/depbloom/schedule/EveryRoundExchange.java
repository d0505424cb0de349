package dev.depbloom.schedule;

import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.observe.Stage;
import java.util.List;

/**
 * Every round's writes are all-gathered, so that every process commits all of them in device order
 * and keeps the same memory ({@code sequential}, {@code disttgl}, and any schedule run by one
 * process).
 */
public final class EveryRoundExchange implements WriteExchange {
  @Override
  public List<DeviceWrite> writesToCommit(List<DeviceWrite> local, int round, Context c) {
    return c.events()
        .coordinator(
            Stage.SYNC, "exchangeWrites", round, () -> c.collective().exchangeWrites(local));
  }
}
