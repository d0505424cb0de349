/**
 * A training run: its config ({@link dev.depbloom.train.RunConfig}: model and schedule, one {@code
 * config.yml}), {@link dev.depbloom.train.TrainingRun}, the schedule built from it ({@link
 * dev.depbloom.train.Schedules}), the epoch loop ({@link dev.depbloom.train.Trainer}), checkpoints,
 * the run folder, metrics and listeners. Imports {@code schedule} and its sub-packages, {@code
 * eval}, {@code profile} and the layers below.
 */
package dev.depbloom.train;
