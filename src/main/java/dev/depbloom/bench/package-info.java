/**
 * Benchmarks that run whole trainings, samplers or a served run and report them ({@code bench
 * schedules}: the schedules side by side; {@code bench serve}: a trained run's serving latency).
 * Imports {@code serve}, {@code api}, {@code train} and the layers below.
 */
package dev.depbloom.bench;
