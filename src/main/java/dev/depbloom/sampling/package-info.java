/**
 * Temporal neighbor sampling: the temporal CSR, recent and uniform samplers with forward-only
 * cursors, snapshot windows. Imports {@code data} only.
 */
package dev.depbloom.sampling;
