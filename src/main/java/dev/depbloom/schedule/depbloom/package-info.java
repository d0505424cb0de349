/**
 * DepBloom (Zhao et al., arXiv 2610.15730): its three techniques by name — {@link
 * dev.depbloom.schedule.depbloom.TemporalWindows} (temporally bounded spatial partitioning), {@link
 * dev.depbloom.schedule.depbloom.IntraBatchRefinement} (with {@link
 * dev.depbloom.schedule.depbloom.MicroBatchChain} and {@link
 * dev.depbloom.schedule.depbloom.OverlayMemory}) and {@link
 * dev.depbloom.schedule.depbloom.CriticalPathCommit} — the {@link
 * dev.depbloom.schedule.depbloom.DepBloomSchedule} that combines them, the window-start prefill and
 * window-end merge ({@link dev.depbloom.schedule.depbloom.WindowEdges}), the window-end exchange
 * between processes and memory groups ({@link
 * dev.depbloom.schedule.depbloom.MemoryGroupsSchedule}). Imports {@code schedule} and the layers
 * below it.
 */
package dev.depbloom.schedule.depbloom;
