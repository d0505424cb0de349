/**
 * Using a trained model, for JVM services: {@link dev.depbloom.api.TemporalLinkPredictor} loads a
 * run folder, keeps the model's memory current as events arrive ({@code observe}), answers link
 * probabilities and rankings ({@code score}, {@code rank}) from a consistent version while events
 * are applied, and saves and restores its state ({@code snapshot}, {@code restore}); the values it
 * takes and returns. Built on the test protocol's own code (the event-slice scorer, the device
 * step, the memory store) and a neighbor index that grows. Imports {@code train}, {@code eval} and
 * the layers below.
 */
package dev.depbloom.api;
