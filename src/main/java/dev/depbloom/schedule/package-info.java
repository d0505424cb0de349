/**
 * Schedules on logical devices (docs/schedules.md) and the engine that runs them: {@link
 * dev.depbloom.schedule.Schedule}, its rounds and items, the {@link
 * dev.depbloom.schedule.ScheduleConfig} every family's config implements, the family registry
 * {@link dev.depbloom.schedule.ScheduleFamilies}, and the {@link dev.depbloom.schedule.RoundRunner}
 * with its planner and memory exchange, which tells what happened as {@link
 * dev.depbloom.schedule.RoundEvent}s to {@link dev.depbloom.schedule.RoundListener}s and knows no
 * timer, trace or projection. A schedule hands the runner its techniques as objects: a {@link
 * dev.depbloom.schedule.Refinement}, a {@link dev.depbloom.schedule.CommitPolicy}, a {@link
 * dev.depbloom.schedule.WriteExchange} and a {@link dev.depbloom.schedule.WindowMemory}. Imports
 * {@code device}, {@code step} and the layers below (of {@code observe} only the {@code Stage} and
 * {@code MemoryPlacement} vocabulary); never its sub-packages, the families' folders, which import
 * it.
 */
package dev.depbloom.schedule;
