package dev.depbloom.eval;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test metrics of one checkpoint under two protocols, scored against the same negatives:
 *
 * <ul>
 *   <li>{@code reset}, TGL's protocol: memory reset, the training and validation events replayed
 *       with the tested parameters, then the test events scored;
 *   <li>{@code continued}: the test events scored on the memory validation left behind under the
 *       tested parameters (DyGLib, TGB, PyG and DistTGL test this way). For models without memory
 *       the two protocols are one and the same, and {@code continued} equals {@code reset}.
 * </ul>
 *
 * @param reset TGL's protocol
 * @param continued the continued protocol
 * @param negatives ranking negatives per event for MRR (0: MRR skipped)
 * @param events test events
 * @param newNodeEvents test events with an endpoint unseen in training
 * @param seconds wall time of the whole test (both protocols and the replay)
 * @param stageSeconds where that time went, by stage ({@code replay}, 0 without memory, then {@code
 *     plan}, {@code shareReads}, {@code memoryUpdate}, {@code score}, {@code memoryWrite}, then
 *     {@code metrics}: the ranking metrics' bookkeeping); the rest is loading the checkpoint and
 *     drawing the negatives
 */
public record TestMetrics(
    Protocol reset,
    Protocol continued,
    int negatives,
    long events,
    long newNodeEvents,
    double seconds,
    Map<String, Double> stageSeconds) {

  /**
   * One protocol's metrics: AP and ROC-AUC averaged over batches with one negative per event (TGL's
   * way; the negative drawn as in validation, so it may equal the destination); MRR against {@code
   * negatives} ranking negatives per event that never equal the event's destination (TGB's
   * convention), or null when MRR is skipped; AP over the test events that touch a node unseen in
   * training (inductive), pooled over the test set.
   */
  public record Protocol(double ap, double auc, Double mrr, double newNodeAp) {}

  /**
   * The metrics under the names {@code test.json} and the summaries use: {@code testAp}, {@code
   * testAuc}, {@code testMrr}, {@code testNewNodeAp} (TGL's protocol), the same with the suffix
   * {@code Continued}, and {@code evalNegatives}. {@code testMrr*} are null when MRR is skipped.
   */
  public Map<String, Object> metrics() {
    Map<String, Object> m = new LinkedHashMap<>();
    put(m, "", reset);
    put(m, "Continued", continued);
    m.put("evalNegatives", negatives);
    return m;
  }

  private static void put(Map<String, Object> m, String suffix, Protocol p) {
    m.put("testAp" + suffix, p.ap());
    m.put("testAuc" + suffix, p.auc());
    m.put("testMrr" + suffix, p.mrr());
    m.put("testNewNodeAp" + suffix, p.newNodeAp());
  }
}
