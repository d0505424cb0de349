package dev.depbloom.schedule.depbloom;

import dev.depbloom.memory.DeviceWrite;
import dev.depbloom.memory.ViewRows;
import dev.depbloom.observe.Stage;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.WriteExchange;
import dev.depbloom.tensor.StepScope;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * DepBloom's memory exchange between processes: during a window only the chain's rank reads or
 * writes the chain's view ({@link DepBloomSchedule#rankOf}), so each process commits its own writes
 * and notes the rows they touch, and at the window's end it sends the final rows of the views it
 * ran since their last merge and overwrites the other processes' copies with theirs, so that every
 * process merges the same views. A view's rows cross once per window, however many rounds wrote
 * them.
 */
public final class WindowEndExchange implements WriteExchange {
  private final Map<Integer, BitSet> written = new HashMap<>(); // view -> rows since its merge

  @Override
  public List<DeviceWrite> writesToCommit(List<DeviceWrite> local, int round, Context c) {
    for (DeviceWrite w : local) {
      BitSet rows = written.computeIfAbsent(w.view(), v -> new BitSet());
      for (int node : w.write().memoryNodes()) {
        rows.set(node);
      }
      for (int node : w.write().mailNodes()) {
        rows.set(node);
      }
    }
    return local;
  }

  /**
   * Sends the final rows this process wrote to the views merging after this round since their last
   * merge, and overwrites the other processes' copies of those views with theirs. Views of memory
   * groups that do not merge now wait for theirs.
   */
  @Override
  public void beforeMerge(RoundPlan round, Context c) {
    c.commit().drain();
    List<ViewRows> mine = new ArrayList<>();
    Set<Integer> merging = new TreeSet<>();
    round.merges().forEach(merging::addAll);
    try (StepScope scope = new StepScope()) {
      for (var e : new TreeMap<>(written).entrySet()) {
        if (!merging.contains(e.getKey())) {
          continue;
        }
        int[] nodes = e.getValue().stream().toArray();
        mine.add(c.memory().readRows(e.getKey(), nodes));
      }
      List<ViewRows> all =
          c.events()
              .coordinator(
                  Stage.SYNC,
                  "exchangeRows",
                  round.index(),
                  () -> c.collective().exchangeRows(mine));
      for (ViewRows rows : all) {
        if (!mine.contains(rows)) {
          try (rows) {
            c.memory().replaceRows(rows);
          }
        }
      }
    } finally {
      mine.forEach(ViewRows::close);
      written.keySet().removeAll(merging);
    }
  }

  @Override
  public void reset(int view) {
    written.remove(view);
  }

  @Override
  public boolean atMerges() {
    return true;
  }
}
