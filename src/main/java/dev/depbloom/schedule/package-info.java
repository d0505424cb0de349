/**
 * Schedules on logical devices (docs/schedules.md) and the engine that runs them: {@link
 * dev.depbloom.schedule.Schedule}, its rounds and items, the sealed {@link
 * dev.depbloom.schedule.ScheduleConfig}, {@code sequential}, and the {@link
 * dev.depbloom.schedule.RoundRunner} with its planner, memory exchange and recorder. A schedule
 * hands the runner its techniques as objects: a {@link dev.depbloom.schedule.Refinement}, a {@link
 * dev.depbloom.schedule.CommitPolicy} and a {@link dev.depbloom.schedule.WriteExchange}. Imports
 * {@code device}, {@code step} and the layers below; never its sub-packages {@code
 * schedule.depbloom} and {@code schedule.disttgl}, which import it.
 */
package dev.depbloom.schedule;
