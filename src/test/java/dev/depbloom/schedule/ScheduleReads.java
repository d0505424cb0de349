package dev.depbloom.schedule;

import dev.depbloom.data.EventStream;
import dev.depbloom.profile.BatchedReads;
import java.util.Arrays;
import java.util.List;

/**
 * A test oracle for {@link dev.depbloom.profile.BatchedReads}, written apart from it: how a
 * schedule's memory reads compare with {@code sequential}'s at batch {@code B}, counted on the
 * schedule's own rounds (docs/schedules.md), with no training: the one measure of staleness that
 * covers every cause a schedule has, whatever its kind.
 *
 * <p>Each node's row is tracked by its <em>version</em>, the latest event whose write it holds.
 * {@code sequential} at batch {@code B} shows an event, for each endpoint, the latest event
 * touching it in an earlier batch. A schedule shows an item's event its view's version as of the
 * round's start, plus, when the schedule {@link Schedule#refinement() refines}, the writes of the
 * same view's earlier items in the round (the micro-batches before it); after every item of a round
 * each view takes its items' writes, the latest event winning, then the round's merges give every
 * view of a group the latest version any of them holds, and the round's resets clear views. A read
 * is <em>stale</em> when its version is older than sequential's (DistTGL's mini-batch parallelism,
 * a DepBloom chain's batch spanning more of the stream than {@code B} events, a write buffered in
 * another chain until the window's end, a memory group that has not yet walked to an event all show
 * up here), <em>fresher</em> when newer (refinement inside a batch of {@code B}, chains reading
 * their own writes sooner than sequential's batch boundaries allow).
 *
 * <p>Epochs run one after another with each view's memory carried over, as the schedule runs them;
 * only epoch {@code epochs}'s reads are counted, so memory groups, which begin later epochs with
 * the memory their previous walk left, are counted in their steady state. An event trained by
 * several memory groups counts once per group.
 *
 * @param reads endpoint reads counted, two per trained event
 * @param staleReads reads older than sequential's
 * @param fresherReads reads newer than sequential's
 * @param events trained events counted
 * @param staleEvents events with at least one stale read
 */
public record ScheduleReads(
    long reads, long staleReads, long fresherReads, long events, long staleEvents) {

  /** Counts the reads of epoch {@code epochs} of {@code schedule}, after the epochs before it. */
  public static ScheduleReads measure(
      EventStream events, Schedule schedule, int batchSize, int epochs) {
    boolean refines = schedule.refinement() != Refinement.NONE;
    int[] src = events.sources();
    int[] dst = events.destinations();
    int nodes = events.nodeCount();
    int[][] version = new int[schedule.memoryViews()][nodes];
    for (int[] v : version) {
      Arrays.fill(v, -1);
    }
    int[] sequentialSrc = null;
    int[] sequentialDst = null;
    long reads = 0;
    long stale = 0;
    long fresher = 0;
    long trained = 0;
    long staleEvents = 0;
    int[] roundWrite =
        new int[nodes]; // latest write this round to the current view, by items so far
    int[] roundWriteView = new int[nodes];
    for (int epoch = 1; epoch <= epochs; epoch++) {
      List<RoundPlan> rounds = schedule.plan(epoch);
      boolean counted = epoch == epochs;
      if (counted) {
        int trainEnd = 0;
        for (RoundPlan r : rounds) {
          for (ItemPlan i : r.items()) {
            trainEnd = Math.max(trainEnd, i.events()[i.size() - 1] + 1);
          }
        }
        int[][] sequential = BatchedReads.sequentialVersions(events, 0, trainEnd, batchSize);
        sequentialSrc = sequential[0];
        sequentialDst = sequential[1];
      }
      for (RoundPlan round : rounds) {
        for (int v : round.resetViews()) {
          Arrays.fill(version[v], -1);
        }
        Arrays.fill(roundWrite, -1);
        Arrays.fill(roundWriteView, -1);
        for (ItemPlan item : round.items()) {
          int[] view = version[item.view()];
          for (int e : item.events()) {
            if (!counted) {
              continue;
            }
            int s = seen(view, roundWrite, roundWriteView, item.view(), src[e], refines);
            int d = seen(view, roundWrite, roundWriteView, item.view(), dst[e], refines);
            int staleHere = (s < sequentialSrc[e] ? 1 : 0) + (d < sequentialDst[e] ? 1 : 0);
            fresher += (s > sequentialSrc[e] ? 1 : 0) + (d > sequentialDst[e] ? 1 : 0);
            stale += staleHere;
            staleEvents += staleHere > 0 ? 1 : 0;
            reads += 2;
            trained++;
          }
          if (refines) {
            // the next micro-batches of this view read through this one's writes
            for (int e : item.events()) {
              markRoundWrite(roundWrite, roundWriteView, item.view(), src[e], e);
              markRoundWrite(roundWrite, roundWriteView, item.view(), dst[e], e);
            }
          }
        }
        for (ItemPlan item : round.items()) {
          int[] view = version[item.view()];
          for (int e : item.events()) {
            view[src[e]] = Math.max(view[src[e]], e);
            view[dst[e]] = Math.max(view[dst[e]], e);
          }
        }
        for (List<Integer> group : round.merges()) {
          for (int n = 0; n < nodes; n++) {
            int latest = -1;
            for (int v : group) {
              latest = Math.max(latest, version[v][n]);
            }
            for (int v : group) {
              version[v][n] = latest;
            }
          }
        }
      }
    }
    return new ScheduleReads(reads, stale, fresher, trained, staleEvents);
  }

  private static int seen(
      int[] view, int[] roundWrite, int[] roundWriteView, int viewIndex, int node, boolean refine) {
    int v = view[node];
    if (refine && roundWriteView[node] == viewIndex) {
      v = Math.max(v, roundWrite[node]);
    }
    return v;
  }

  private static void markRoundWrite(
      int[] roundWrite, int[] roundWriteView, int view, int node, int event) {
    if (roundWriteView[node] != view) {
      // another view wrote the node earlier this round; this view's refinement does not see it
      roundWriteView[node] = view;
      roundWrite[node] = event;
    } else {
      roundWrite[node] = Math.max(roundWrite[node], event);
    }
  }

  /** Share of reads older than sequential's. */
  public double staleReadShare() {
    return reads == 0 ? 0 : (double) staleReads / reads;
  }

  /** Share of reads newer than sequential's. */
  public double fresherReadShare() {
    return reads == 0 ? 0 : (double) fresherReads / reads;
  }

  /** Share of trained events with a stale read. */
  public double staleEventShare() {
    return events == 0 ? 0 : (double) staleEvents / events;
  }
}
