/**
 * What a run records of its training rounds, as {@link dev.depbloom.schedule.RoundListener}s of the
 * round engine's events: the stage timers of the run and of each logical device ({@link
 * dev.depbloom.recording.StageTimes}), the Chrome trace ({@link
 * dev.depbloom.recording.TraceSpans}), and each round's costs and recorded work for a projection
 * ({@link dev.depbloom.recording.RoundCostRecorder}). Lies above {@code schedule}, whose events it
 * reads, and below {@code train}; the engine knows none of it.
 */
package dev.depbloom.recording;
