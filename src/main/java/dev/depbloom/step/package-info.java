/**
 * What one logical device runs ({@link dev.depbloom.step.DeviceStep}: fetch, memory update,
 * refinement through {@link dev.depbloom.step.ReadThrough}, embed, predict, loss, backward; scoring
 * and replay without gradient), the {@link dev.depbloom.step.Replica}, the {@link
 * dev.depbloom.step.BatchPlanner} (the sample stage) and the {@link
 * dev.depbloom.step.TrainingSession} they share. Used by {@code eval} and {@code schedule}; imports
 * the layers below them, down to {@code data}, and {@code observe}.
 */
package dev.depbloom.step;
