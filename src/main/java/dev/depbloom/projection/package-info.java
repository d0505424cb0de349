/**
 * Projection of a run onto devices (docs/projection.md), the one home of both clocks: the {@code
 * measured} clock ({@link dev.depbloom.projection.DeviceProjection}: every logical device costs its
 * item as measured here, a stated link between them) and stated GPU device models: {@link
 * dev.depbloom.projection.DeviceModel} (cited parameters, loaded from {@code
 * dev/depbloom/devices}), the price of a round's recorded work ({@code observe.RoundWork}) on a
 * device model under a schedule's memory placement ({@link dev.depbloom.projection.GpuRoundModel}),
 * and a run's rounds projected as they finish ({@link dev.depbloom.projection.GpuProjection}).
 *
 * <p>May import {@code data}, {@code tensor} (recorded kernels, plain Java) and {@code observe}.
 */
package dev.depbloom.projection;
