/**
 * The neural network modules: time encoder, memory updaters, temporal attention, JODIE's time
 * projection, the snapshot combiner, the edge predictor and dropout. Imports {@code tensor} only.
 */
package dev.depbloom.nn;
