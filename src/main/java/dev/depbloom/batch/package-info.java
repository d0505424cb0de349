/**
 * A training batch (roots laid out {@code [src | dst | neg...]}), TGL-aligned batch bounds and the
 * negative sampler. Imports {@code data} only.
 */
package dev.depbloom.batch;
