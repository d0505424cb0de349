/**
 * The prediction server: HTTP with JSON on the JDK's own server in front of a {@link
 * dev.depbloom.api.TemporalLinkPredictor}, request checks that name the line and field, and
 * Prometheus metrics. Imports {@code api} and {@code data}.
 */
package dev.depbloom.serve;
