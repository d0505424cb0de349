/**
 * Projection of a run onto stated GPU device models (DESIGN.md section 6): {@link
 * dev.depbloom.projection.DeviceModel} (cited parameters, loaded from {@code
 * dev/depbloom/devices}), the work a round recorded ({@link dev.depbloom.projection.RoundWork}:
 * kernels by stage, memory traffic, the all-reduce, commits, merges, prefills) and its price on a
 * device model under a schedule's memory placement ({@link dev.depbloom.projection.GpuRoundModel}).
 *
 * <p>May import {@code data}, {@code tensor} (recorded kernels, plain Java) and {@code observe}.
 */
package dev.depbloom.projection;
