package dev.depbloom.api;

import dev.depbloom.batch.Batch;
import java.util.List;

/**
 * Observed events checked and mapped, before anything is applied: dense ids (new ids given out,
 * pending), run times, features, and each event's candidate destinations. Checks, in order per
 * event: a time {@link AdmissionRules} admits and not before the event before it, features as wide
 * as the run's and finite, ids in the id space and within the new-node limit; candidate lists of
 * one length, their ids in the id space. The first failure is a {@link RejectedInputException}
 * naming the event and the field, and the new ids given out so far are taken back.
 *
 * @param src {@code [n]} dense source ids
 * @param dst {@code [n]} dense destination ids
 * @param time {@code [n]} run times, non-decreasing
 * @param features {@code [n]} feature rows, null entries for zeros
 * @param candidates {@code [k * n]} dense candidate ids, candidate-major ({@code candidates[j * n +
 *     i]} is event i's j-th)
 * @param k candidates per event
 */
record PreparedEvents(
    int[] src, int[] dst, double[] time, float[][] features, int[] candidates, int k) {

  int size() {
    return src.length;
  }

  /**
   * Appends events {@code [from, to)} to {@code state} (pending) and returns them as one batch:
   * roots are the sources, then the destinations, then each candidate list, all at the event's
   * time.
   */
  Batch append(ServingState state, int from, int to) {
    int b = to - from;
    int[] edges = new int[b];
    int[] roots = new int[(2 + k) * b];
    double[] times = new double[roots.length];
    for (int i = 0; i < b; i++) {
      int e = from + i;
      edges[i] = state.append(src[e], dst[e], time[e], features[e]);
      roots[i] = src[e];
      roots[b + i] = dst[e];
      for (int j = 0; j < k; j++) {
        roots[(2 + j) * b + i] = candidates[j * size() + e];
      }
      for (int j = 0; j < 2 + k; j++) {
        times[j * b + i] = time[e];
      }
    }
    return new Batch(0, edges, roots, times);
  }

  /**
   * Checks and maps {@code events} against {@code state}, giving new ids (pending) to unknown
   * sources and destinations; {@code candidates} (or null) holds each event's candidate
   * destinations, scored with it but never added.
   */
  static PreparedEvents prepare(
      List<Interaction> events, long[][] candidates, ServingState state, LoadedRun run) {
    try {
      return map(events, candidates, state, run);
    } catch (RejectedInputException e) {
      state.ids.discardPending();
      throw e;
    }
  }

  private static PreparedEvents map(
      List<Interaction> events, long[][] candidates, ServingState state, LoadedRun run) {
    int n = events.size();
    int k = candidateCount(candidates, n);
    int dim = state.events.dim();
    double origin = run.timeOrigin();
    double newest = state.newestTime(); // then each event's: the events before it are observed
    int[] src = new int[n];
    int[] dst = new int[n];
    double[] time = new double[n];
    float[][] features = new float[n][];
    for (int i = 0; i < n; i++) {
      Interaction e = events.get(i);
      if (e == null) {
        throw new RejectedInputException("event", i, "event", "missing (null)");
      }
      double runTime =
          AdmissionRules.runTime(
              run, newest, e.time(), "event", i, "events must arrive in time order");
      newest = runTime;
      time[i] = runTime;
      features[i] = features(e.features(), dim, i);
      src[i] = dense(state, e.source(), i, "src", run);
      dst[i] = dense(state, e.destination(), i, "dst", run);
    }
    int[] cand = new int[k * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < k; j++) {
        AdmissionRules.checkId(run, candidates[i][j], "event", i, "candidates");
        cand[j * n + i] = state.ids.denseOrBlank(candidates[i][j]);
      }
    }
    return new PreparedEvents(src, dst, time, features, cand, k);
  }

  private static int candidateCount(long[][] candidates, int n) {
    if (candidates == null) {
      return 0;
    }
    if (candidates.length != n) {
      throw new RejectedInputException(
          "request", -1, "candidates", candidates.length + " candidate lists for " + n + " events");
    }
    int k = n == 0 || candidates[0] == null ? 0 : candidates[0].length;
    for (int i = 0; i < n; i++) {
      if (candidates[i] == null || candidates[i].length != k) {
        throw new RejectedInputException(
            "event",
            i,
            "candidates",
            "every event needs the same number of candidates (" + k + ")");
      }
    }
    return k;
  }

  private static float[] features(float[] f, int dim, int i) {
    if (f == null) {
      return null;
    }
    if (f.length != dim) {
      throw new RejectedInputException(
          "event",
          i,
          "features",
          "expected " + dim + " numbers (the run's edge features), got " + f.length);
    }
    for (int j = 0; j < dim; j++) {
      if (!Float.isFinite(f[j])) {
        throw new RejectedInputException(
            "event", i, "features", "value " + j + " is " + f[j] + ", expected a finite number");
      }
    }
    return f.clone();
  }

  private static int dense(ServingState state, long id, int i, String field, LoadedRun run) {
    AdmissionRules.checkId(run, id, "event", i, field);
    int d = state.ids.denseOrAdd(id);
    if (d < 0) {
      throw new RejectedInputException(
          "event",
          i,
          field,
          "node "
              + id
              + " would be a new node beyond the limit of "
              + state.ids.limit()
              + " new nodes (--max-new-nodes); it is not added");
    }
    return d;
  }
}
