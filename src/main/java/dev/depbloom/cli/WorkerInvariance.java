package dev.depbloom.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.depbloom.tensor.ThreadBudget;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a run's figures depend on its logical devices alone, or also on its thread settings. By
 * default they depend on the devices alone: every work item runs with intra-op 1 + BLAS 1 threads
 * whatever the worker count, and with fewer than {@code 2 G} workers (all processes together) no
 * item is split. Two settings break it, and a run that uses one says so in a note before its other
 * notes (only the data's warnings come first) and in {@code run.json}: more than one intra-op or
 * BLAS thread per item ({@code --threads 1,2}, or what {@code --threads auto} picks), since
 * products round differently with other thread counts; and {@code 2 G} workers or more, which split
 * each unrefined item into {@code floor(W / G)} event shards whose partial sums round differently
 * from the whole item's.
 *
 * @param note why the figures depend on the thread settings, or null when they do not
 */
record WorkerInvariance(String note) {
  /**
   * The invariance of {@code budget} on {@code worldSize} processes for {@code devices} devices.
   */
  static WorkerInvariance of(ThreadBudget budget, int devices, int worldSize) {
    List<String> reasons = new ArrayList<>();
    if (budget.intraOp() > 1 || budget.blas() > 1) {
      reasons.add(
          "threads "
              + budget.spec()
              + " run every work item with intra-op "
              + budget.intraOp()
              + " + BLAS "
              + budget.blas()
              + " threads, and products round differently with other counts; the default, 1 + 1 per"
              + " item, equals runs on any number of workers");
    }
    int workers = budget.workers() * worldSize;
    int shards = workers / devices;
    if (shards > 1) {
      reasons.add(
          workers
              + " workers"
              + (worldSize > 1 ? " (" + worldSize + " processes)" : "")
              + " for "
              + devices
              + " logical device"
              + (devices == 1 ? "" : "s")
              + " split each work item into "
              + shards
              + " event shards (with at most "
              + (2 * devices - 1)
              + (2 * devices - 1 == 1 ? " worker" : " workers")
              + " in all, items stay whole)");
    }
    return new WorkerInvariance(
        reasons.isEmpty()
            ? null
            : "results depend on the thread settings, not on the logical devices alone (they"
                + " equal only runs with the same settings): "
                + String.join("; ", reasons));
  }

  /** Whether the figures depend on the logical devices alone. */
  boolean holds() {
    return note == null;
  }

  /** The note on {@code err}, when there is one. */
  void print(PrintWriter err) {
    if (note != null) {
      err.println("depbloom: note: " + note);
      err.flush();
    }
  }

  /** Records it in {@code run.json}'s {@code threads}: {@code workerInvariant}, and the note. */
  void record(ObjectNode threads) {
    threads.put("workerInvariant", holds());
    if (note != null) {
      threads.put("note", note);
    }
  }
}
