/**
 * Benchmarks that run whole trainings or samplers and report them ({@code bench schedules}: the
 * schedules side by side). Imports {@code train} and the layers below.
 */
package dev.depbloom.bench;
