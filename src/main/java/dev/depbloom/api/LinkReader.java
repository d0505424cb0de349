package dev.depbloom.api;

import dev.depbloom.batch.Batch;
import dev.depbloom.data.RandomStreams;
import dev.depbloom.eval.EventSliceScorer;
import dev.depbloom.step.BatchScores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Link probabilities read from one version of a served state, writing nothing: the pairs of {@link
 * TemporalLinkPredictor#score(List)} and the candidates of {@link TemporalLinkPredictor#rank} go
 * through one pass layout, so a pair gets the same float from both. The caller holds the read side
 * of the version guard.
 */
final class LinkReader {
  private static final long SCORE = RandomStreams.key("serve-score");

  private final LoadedRun run;

  LinkReader(LoadedRun run) {
    this.run = run;
  }

  /** The probabilities of {@code queries} on state {@code s}. */
  ScoredLinks score(ServingState s, List<LinkQuery> queries) {
    int b = queries.size();
    int[] src = new int[b];
    int[] dst = new int[b];
    double[] times = new double[b];
    for (int i = 0; i < b; i++) {
      LinkQuery q = queries.get(i);
      src[i] = dense(s, q.source(), "query", i, "src");
      dst[i] = dense(s, q.destination(), "query", i, "dst");
      times[i] = queryTime(s, q.time(), "query", i);
    }
    return new ScoredLinks(s.version(), pairs(s, src, dst, times, "query"));
  }

  /**
   * The {@code k} most likely of {@code candidates} on state {@code s}, each scored as the pair
   * {@code (source, candidate)}.
   */
  Ranking rank(ServingState s, long source, long[] candidates, double time, int k) {
    int c = candidates.length;
    int[] src = new int[c];
    int[] dst = new int[c];
    double[] times = new double[c];
    Arrays.fill(src, dense(s, source, "request", -1, "src"));
    Arrays.fill(times, queryTime(s, time, "request", -1));
    for (int j = 0; j < c; j++) {
      dst[j] = dense(s, candidates[j], "candidate", j, "candidates");
    }
    return new Ranking(s.version(), top(candidates, pairs(s, src, dst, times, "candidate"), k));
  }

  /** The dense id a query reads for {@code id}, refused outside the id space. */
  private int dense(ServingState s, long id, String item, int index, String field) {
    AdmissionRules.checkId(run, id, item, index, field);
    return s.ids.denseOrBlank(id);
  }

  /** The best {@code k} of {@code candidates} by {@code scores}, ties in candidate order. */
  private static List<RankedNode> top(long[] candidates, float[] scores, int k) {
    Integer[] order = new Integer[scores.length];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Float.compare(scores[b], scores[a])); // stable
    List<RankedNode> out = new ArrayList<>();
    for (int i = 0; i < Math.min(k, order.length); i++) {
      out.add(new RankedNode(candidates[order[i]], scores[order[i]]));
    }
    return out;
  }

  /** A query's run time, refused unless {@link AdmissionRules} admits it. */
  private double queryTime(ServingState s, double time, String item, int index) {
    if (Double.isNaN(time)) { // NEWEST
      return Double.isInfinite(s.newestTime()) ? 0 : s.newestTime();
    }
    return AdmissionRules.runTime(
        run, s.newestTime(), time, item, index, "the memory has already seen it");
  }

  /**
   * The probabilities of the pairs {@code (src[i], dst[i])} at {@code times[i]}: one pass over
   * roots {@code [src | dst]}, the layout {@link #score} and {@link #rank} share, so a pair gets
   * the same float from both (ranking a source's candidates as one event with the others as its
   * negatives, as before, summed in another order: 0.8773808 against 0.8773809). A pair's row is
   * computed alike whatever the number of rows beside it, a single pair included: checked on AVX2
   * and on the default kernels ({@code HostileClientsTest}); padding a single pair to two rows,
   * against a BLAS that might route one row to a matrix-vector kernel, cost 1.6x its score time. A
   * score that is not a number is refused ({@link UnscorableQueryException}), never returned.
   */
  private float[] pairs(ServingState s, int[] src, int[] dst, double[] times, String item) {
    int b = src.length;
    int[] roots = new int[2 * b];
    double[] rootTimes = new double[2 * b];
    for (int i = 0; i < b; i++) {
      roots[i] = src[i];
      roots[b + i] = dst[i];
      rootTimes[i] = times[i];
      rootTimes[b + i] = times[i];
    }
    float[] out = read(s, roots, rootTimes, b).positive();
    for (int i = 0; i < b; i++) {
      if (!Float.isFinite(out[i])) {
        throw new UnscorableQueryException(item, i, out[i]);
      }
    }
    return out;
  }

  /** Scores roots {@code [src | dst | more destinations]} of {@code b} queries, writing nothing. */
  private BatchScores read(ServingState s, int[] roots, double[] times, int b) {
    int[] edges = new int[b];
    Arrays.setAll(edges, i -> s.events.nextEdgeId() + i); // hypothetical events: never stored
    Batch batch = new Batch(0, edges, roots, times);
    long stream = RandomStreams.derive(run.run.seed(), SCORE, s.version());
    try (EventSliceScorer scorer = new EventSliceScorer(s.step, run.planner, run.config, 1)) {
      return scorer.score(batch, stream, s.reader(), s.memory, 0, false);
    }
  }

  /**
   * Refuses a rank request before it reads anything: candidates missing or none, or {@code k < 1}.
   */
  static void checkRankRequest(long[] candidates, int k) {
    Objects.requireNonNull(candidates, "candidates");
    if (candidates.length == 0) {
      throw new RejectedInputException("request", -1, "candidates", "no candidates to rank");
    }
    if (k < 1) {
      throw new RejectedInputException("request", -1, "k", "expected k >= 1, got " + k);
    }
  }
}
