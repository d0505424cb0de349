/**
 * Scoring without training: the {@link dev.depbloom.eval.Evaluator} (validation, checks inside an
 * epoch, both test protocols, the replay), the event-slice scorer of the test pass, test negatives,
 * the ranking metrics and their accumulation. Imports {@code step} and the layers below it.
 */
package dev.depbloom.eval;
