package dev.depbloom.eval;

/**
 * What a validation pass measured, each the mean over its batches (TGL's way): average precision,
 * ROC-AUC and the BCE loss of the validation events against their first negatives. NaN when there
 * are no validation events.
 */
public record Validation(double ap, double auc, double loss) {}
