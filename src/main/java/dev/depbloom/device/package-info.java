/**
 * Execution on several devices and processes: the {@link dev.depbloom.device.Collective} that sums
 * gradients and exchanges memory (in process, or over c10d with a rank environment, heartbeats and
 * an exchange codec) and the {@link dev.depbloom.device.DeviceExecutor} of workers. Imports {@code
 * data}, {@code tensor} and {@code memory}.
 */
package dev.depbloom.device;
