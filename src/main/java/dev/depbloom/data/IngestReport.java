package dev.depbloom.data;

/**
 * What loading a file found and fixed, kept with the stream so {@code inspect} and run provenance
 * can report it.
 *
 * @param source the path that was loaded
 * @param format the format it was read as
 * @param outOfOrder rows whose time is smaller than the previous row's (backward steps in the file)
 * @param rowsMoved rows whose position changed in the stable sort by time
 */
public record IngestReport(String source, DataFormat format, long outOfOrder, long rowsMoved) {}
