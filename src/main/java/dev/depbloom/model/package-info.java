/**
 * {@link dev.depbloom.model.TemporalGnn} (memory update, embedding, prediction), a batch's plan
 * ({@link dev.depbloom.model.BatchGraph}: level tables, deduplicated reads, the write) and its
 * inputs. Imports {@code data}, {@code batch}, {@code sampling}, {@code tensor}, {@code memory},
 * {@code nn} and {@code model.config}.
 */
package dev.depbloom.model;
