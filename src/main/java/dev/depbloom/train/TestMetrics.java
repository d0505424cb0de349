package dev.depbloom.train;

/**
 * Test metrics after the memory reset and replay: AP and ROC-AUC averaged over batches with one
 * negative per event (TGL's way); MRR against {@code negatives} sampled negatives per event; and AP
 * over the test events that touch a node unseen in training (inductive), pooled over the test set.
 */
public record TestMetrics(
    double ap,
    double auc,
    double mrr,
    int negatives,
    double newNodeAp,
    long events,
    long newNodeEvents,
    double seconds) {}
