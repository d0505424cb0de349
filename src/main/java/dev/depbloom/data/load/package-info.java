/**
 * Loading a data set into an {@link dev.depbloom.data.EventStream}: format detection, the loaders
 * of TGL, JODIE, DyGLib, SNAP and header CSV files, column mappings, the embedded Wikipedia stream
 * and stream statistics. Imports {@code data}, {@code data.io} and {@code data.store}; keeping the
 * loaders here is what keeps {@code data} free of its sub-packages.
 */
package dev.depbloom.data.load;
