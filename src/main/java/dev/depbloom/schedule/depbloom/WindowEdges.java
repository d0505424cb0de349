package dev.depbloom.schedule.depbloom;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.memory.MemoryStore;
import dev.depbloom.sampling.NeighborSampler;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.WindowMemory;
import dev.depbloom.step.TrainingSession;
import java.util.List;

/**
 * DepBloom's window edges: the window-start prefill (not in the paper; {@code schedule.prefill})
 * replays the earlier chains into the later chains' views, and the window-end merge gives every
 * view of a group, per node, the latest write among them ({@link MemoryStore#mergeLatest}).
 */
final class WindowEdges implements WindowMemory {
  private static final long PREFILL = RandomStreams.key("prefill");

  /**
   * The replays of a prefill, view after view: each later view takes the rows its predecessor
   * replayed ({@link MemoryStore#copyWritten}) and replays its predecessor's chain, memory writes
   * only, with a sampler of its own (the views' samplers keep their cursors). The views hold the
   * same merged memory at a window's start on every process, and the replay depends only on it, the
   * stream and the parameters.
   */
  @Override
  public long prefill(RoundPlan.Prefill f, RoundPlan round, int epoch, TrainingSession session) {
    long bytes = 0;
    MemoryStore memory = session.memory();
    if (!memory.isNone()) {
      try (NeighborSampler sampler = session.newSampler()) {
        for (int p = 1; p < f.views().size(); p++) {
          int view = f.views().get(p);
          if (p > 1) {
            bytes += memory.copyWritten(f.views().get(p - 1), view);
          }
          for (int[] b : session.bounds(f.starts().get(p - 1), f.starts().get(p))) {
            long[] keys = {PREFILL, epoch, b[0], view};
            long stream = RandomStreams.derive(session.spec().seed(), keys);
            Batch batch = session.batch(round.index(), b[0], b[1], 0, keys);
            session
                .step()
                .scoring()
                .replay(session.planner().planWrite(batch, stream, sampler), memory, view);
          }
        }
      }
    }
    return bytes;
  }

  /** Per node, the latest write among the views of {@code group} wins in all of them. */
  @Override
  public MemoryStore.MergeCost merge(List<Integer> group, MemoryStore memory) {
    return memory.mergeLatest(group);
  }
}
