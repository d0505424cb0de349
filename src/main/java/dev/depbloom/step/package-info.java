/**
 * What one logical device runs ({@link dev.depbloom.step.DeviceStep}: fetch, memory update,
 * refinement through {@link dev.depbloom.step.ReadThrough}, embed, predict, loss, backward; scoring
 * and replay without gradient), the {@link dev.depbloom.step.Replica}, the {@link
 * dev.depbloom.step.BatchPlanner} (the sample stage) and the {@link
 * dev.depbloom.step.TrainingSession} they share; a task measures its own stages into a {@link
 * dev.depbloom.step.StageClock}. Used by {@code eval} and {@code schedule}; imports the layers
 * below them, down to {@code data}, and of {@code observe} the {@code Stage} names.
 */
package dev.depbloom.step;
